package harvest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

func TestDebugComments(t *testing.T) {
	_, srv := serve(t, "wordpress", nil)
	c, _ := fetch.New(fetch.Options{AllowHosts: []string{"127.0.0.1"}})
	f, _, err := feed.FetchAll(context.Background(), c, srv.URL+"/feed/", feed.PageOptions{})
	fmt.Println(len(f.Items), err)
	for _, it := range f.Items {
		if it.CommentCount > 10 {
			cs, file, err := feed.FetchComments(context.Background(), c, f, it)
			fmt.Println(it.Link, it.CommentCount, it.CommentFeedURL, len(cs), file != nil, err)
		}
	}
	it := feed.Item{Link: srv.URL + "/2013/04/17/a-damp-hammer/", CommentFeedURL: srv.URL + "/2013/04/17/a-damp-hammer/feed/"}
	cs, _, err := feed.FetchComments(context.Background(), c, f, it)
	fmt.Println(len(cs), err)
}
