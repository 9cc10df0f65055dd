// Package textsim compares texts as the learner and the evaluation both
// do: case folding and white-space collapsing (NormalizeText, Collapse),
// character bigrams with dense ids (Coder) and their Sørensen–Dice
// coefficient (Dice, SortedDice), word-token F1 (TokenF1), the visible
// text of an HTML fragment (HTMLText), and the identity of an author
// (SameAuthor, CleanAuthor) or of a day (SameDay). harvest/learn scores
// pages with it; the eval module scores every extractor with it.
//
// It imports only the standard library and the module's copy of
// golang.org/x/net/html (internal/xnet/html), whose tokenizer allocates less.
package textsim
