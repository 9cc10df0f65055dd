package harvest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
)

// TestNewCrawlNoShortfallWithoutComments: on blogs in French and Spanish
// every post without comments says so ("Aucun commentaire", "No hay
// comentarios") above the reply form's title ("Laisser un commentaire",
// "Deja un comentario"), and the feed counts none. No post is a comment
// shortfall: "un" is a number word only where it counts comments, not
// inside an invitation to write one (issue 36, cause 5).
func TestNewCrawlNoShortfallWithoutComments(t *testing.T) {
	for _, lang := range []struct{ code, none, leave, reply string }{
		{"fr", "Aucun commentaire", "Laisser un commentaire", "Répondre"},
		{"es", "No hay comentarios", "Deja un comentario", "Responder"},
		{"it", "Nessun commento", "Lascia un commento", "Rispondi"},
		{"de", "Keine Kommentare", "Hinterlasse einen Kommentar", "Antworten"},
	} {
		t.Run(lang.code, func(t *testing.T) {
			s := newMiniSite()
			start := time.Date(2021, 3, 1, 9, 0, 0, 0, time.UTC)
			var items []miniItem
			for i := 5; i >= 0; i-- {
				path := fmt.Sprintf("/2021/03/billet-%d/", i)
				title := fmt.Sprintf("Billet numéro %d sur les écluses", i)
				body := prose(fmt.Sprintf("les écluses %d", i), 5)
				date := start.AddDate(0, 0, i)
				items = append(items, miniItem{path: path, title: title, body: body, date: date, comments: 0})
				s.docs[path] = fmt.Sprintf(`<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8"><title>%s – Écluses</title>
<link rel="alternate" type="application/rss+xml" href="{{base}}/feed/"></head><body>
<header><a href="{{base}}/">Écluses</a></header>
<main><article class="post hentry"><h1 class="entry-title">%s</h1>
<p class="meta"><time class="entry-date published" datetime="%s">%s</time> <a href="#comments">%s</a></p>
<div class="entry-content">%s</div></article>
<div id="comments" class="comments-area"><h2 class="comments-title">%s</h2>
<div id="respond" class="comment-respond"><h3 id="reply-title" class="comment-reply-title">%s <small><a rel="nofollow" id="cancel-comment-reply-link" href="#respond">%s</a></small></h3>
<form action="{{base}}/wp-comments-post.php" method="post" id="commentform"><textarea name="comment"></textarea></form></div></div>
</main></body></html>`, lang.code, title, title, date.Format(time.RFC3339), date.Format("2006-01-02"), lang.none, body, lang.none, lang.leave, lang.reply)
			}
			s.docs["/feed/"] = rss("Écluses", lang.code, items)
			s.docs["/"] = `<!DOCTYPE html><html><head><title>Écluses</title><link rel="alternate" type="application/rss+xml" href="{{base}}/feed/"></head><body><p>Écluses</p></body></html>`
			srv := s.start(t)
			res, out := crawl(t, options("count-"+lang.code, srv.URL))
			if got := len(out.ByURL(t)); got != len(items) {
				t.Fatalf("%d entries, want %d", got, len(items))
			}
			for _, r := range harvest.Shortfalls(res.Ledger) {
				t.Errorf("comment shortfall on a post without comments: %s %s", r.URL, r.Comments)
			}
		})
	}
}
