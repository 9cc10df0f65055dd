package blogharvest

import "fmt"

// BreakParentCycles makes the parent links of e's comments a forest. A
// blog may serve replies that answer each other (comment 11 answering 12
// and 12 answering 11 in a comment feed, a three-comment loop in a REST
// answer); Validate refuses such an entry, and with it the post. On each
// cycle the link of one comment is removed, the comment then answering
// the post: the one added first (it cannot have answered a later one),
// ties going to the smallest id, so the same comments always lose the same
// link. Every comment is kept. It returns one line per link removed, for
// Entry.Problems and the crawl ledger; nil when there was no cycle. It
// runs in time linear in the number of comments.
func (e *Entry) BreakParentCycles() []string {
	cs := e.Comments
	index := make(map[string]int, len(cs))
	for i := range cs {
		if _, dup := index[cs[i].ID]; !dup {
			index[cs[i].ID] = i
		}
	}
	parentOf := func(i int) int {
		if p, ok := index[cs[i].ParentID]; ok && cs[i].ParentID != "" {
			return p
		}
		return -1
	}
	const (
		unseen = iota
		onPath
		done
	)
	children := make([]int, len(cs)) // replies of each comment among cs
	for i := range cs {
		if p := parentOf(i); p >= 0 {
			children[p]++
		}
	}
	state := make([]uint8, len(cs))
	var broken []string
	var path []int
	for start := range cs {
		path = path[:0]
		i := start
		for i >= 0 && state[i] == unseen {
			state[i] = onPath
			path = append(path, i)
			i = parentOf(i)
		}
		if i >= 0 && state[i] == onPath { // the path came back to i: a cycle
			victim, n := i, 1
			for j := parentOf(i); j != i; j = parentOf(j) {
				n++
				if firstAdded(&cs[j], &cs[victim]) {
					victim = j
				}
			}
			v := &cs[victim]
			p := &cs[parentOf(victim)]
			broken = append(broken, fmt.Sprintf("comments: a reply cycle of %d comment(s): the parent link of %s (to %s) removed, the comment kept answering the post", n, v.ID, p.ID))
			children[parentOf(victim)]--
			if p.NumReplies > 0 {
				p.NumReplies--
			}
			p.HasReply = children[parentOf(victim)] > 0
			v.ParentID, v.ParentURL = "", ""
			v.AddressedTo = firstNonEmptyString(v.PostURL, e.URL)
		}
		for _, k := range path {
			state[k] = done
		}
	}
	return broken
}

// firstAdded reports whether a was added before b: by time when both
// have one, else by id.
func firstAdded(a, b *Comment) bool {
	if !a.Added.IsZero() && !b.Added.IsZero() && !a.Added.Equal(b.Added) {
		return a.Added.Before(b.Added)
	}
	return a.ID < b.ID
}

// firstNonEmptyString returns the first of s that is not empty.
func firstNonEmptyString(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
