package feed

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mmcdole/gofeed"
)

// jsonExtras is what gofeed does not keep of a JSON Feed.
type jsonExtras struct {
	NextURL string            `json:"next_url"`
	Items   []json.RawMessage `json:"items"`
}

// parseJSON parses a JSON Feed (1.0 or 1.1).
func parseJSON(body []byte, feedURL string) (*Feed, error) {
	var ex jsonExtras
	if err := json.Unmarshal(trimBOM(body), &ex); err != nil {
		return nil, fmt.Errorf("malformed JSON Feed: %w", err)
	}
	gf, err := gofeed.NewParser().Parse(bytes.NewReader(trimBOM(body)))
	if err != nil {
		return nil, fmt.Errorf("malformed JSON Feed: %w", err)
	}
	f := fromGofeed(gf, feedURL)
	f.Format, f.Raw = "json", body
	if ex.NextURL != "" {
		f.Next = []string{resolve(feedURL, ex.NextURL)}
	}
	if len(ex.Items) == len(f.Items) {
		for i := range f.Items {
			f.Items[i].Raw = []byte(ex.Items[i])
		}
	}
	return f, nil
}
