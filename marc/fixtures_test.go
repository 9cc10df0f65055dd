package marc_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
)

var (
	athens   = time.FixedZone("EEST", 3*3600)
	captured = time.Date(2024, 3, 5, 9, 30, 0, 0, time.UTC)
	updated  = time.Date(2024, 3, 5, 9, 31, 2, 700_000_000, time.UTC)
)

// fullBlog sets every attribute of the Blog record.
func fullBlog() *blogharvest.Blog {
	return &blogharvest.Blog{
		ID:                 "olive-grove",
		URL:                "https://olive.example/",
		Title:              "The Olive Grove",
		Subtitle:           "Notes from a small farm",
		Aliases:            []string{"https://www.olive.example/", "http://olive.example/"},
		StatusCode:         200,
		Language:           "el-GR",
		Encoding:           "UTF-8",
		SitemapURL:         "https://olive.example/sitemap.xml",
		FeedURL:            "https://olive.example/feed/",
		Platform:           "WordPress",
		PlatformVersion:    "6.4.2",
		Webmaster:          "webmaster@olive.example",
		HostingIP:          "192.0.2.17",
		LocationCity:       "Kalamata",
		LocationCountry:    "GR",
		LastActivity:       time.Date(2024, 3, 4, 18, 5, 0, 0, athens),
		PostFrequency:      "2.5 posts/week",
		UpdateFrequency:    "hourly/1",
		Copyright:          "© 2024 Eleni P.",
		OwnershipRights:    "Eleni P.",
		DistributionRights: "Non-commercial redistribution permitted",
		AccessRights:       "Public",
		License:            "https://creativecommons.org/licenses/by-nc/4.0/",
		Captured:           captured,
	}
}

// minimalBlog sets only what a valid Blog needs.
func minimalBlog() *blogharvest.Blog {
	return &blogharvest.Blog{ID: "olive-grove", URL: "https://olive.example/", Captured: captured}
}

// fullEntry sets every attribute of the Entry record.
func fullEntry() *blogharvest.Entry {
	var p blogharvest.Provenance
	p.Set("has_reply", blogharvest.MethodFeed)
	return &blogharvest.Entry{
		BlogID:            "olive-grove",
		Kind:              blogharvest.KindPost,
		URL:               "https://olive.example/2013/08/harvest-time/",
		Title:             "Harvest time",
		Subtitle:          "Picking & pressing <by hand>",
		Content:           "<p>The first olives came in on Monday.</p>",
		ContentFormat:     "text/html",
		Author:            "Eleni P.",
		Aliases:           []string{"https://olive.example/?p=42"},
		AltIdentifier:     "https://olive.example/?p=42",
		Created:           time.Date(2013, 8, 28, 10, 44, 8, 0, time.UTC),
		Modified:          time.Date(2013, 8, 29, 7, 0, 0, 0, athens),
		Version:           "rev-3",
		StatusCode:        200,
		ResponseCode:      "200 OK",
		Geo:               &blogharvest.Geo{Latitude: 37.0389, Longitude: 22.1142},
		AccessRestriction: "password protected",
		Categories:        []string{"Farm", "Harvest"},
		Tags:              []string{"olives"},
		HasReply:          true,
		NumReplies:        2,
		LastReplyDate:     time.Date(2013, 8, 30, 12, 0, 0, 0, time.UTC),
		ChildOf:           "https://olive.example/",
		Captured:          captured,
		Provenance:        p,
		Comments:          []blogharvest.Comment{*fullComment(), *replyComment()},
	}
}

// minimalEntry sets only what a valid Entry needs.
func minimalEntry() *blogharvest.Entry {
	return &blogharvest.Entry{
		BlogID: "olive-grove", Kind: blogharvest.KindPage,
		URL: "https://olive.example/about/", Captured: captured,
	}
}

// fullComment sets every attribute of the Comment record.
func fullComment() *blogharvest.Comment {
	return &blogharvest.Comment{
		ID:            "comment-7",
		URL:           "https://olive.example/2013/08/harvest-time/#comment-7",
		Subject:       "Lovely",
		Author:        "Nikos",
		Content:       "<p>What a crop!</p>",
		ContentFormat: "text/html",
		Status:        "approved",
		Added:         time.Date(2013, 8, 28, 12, 1, 2, 0, time.UTC),
		Modified:      time.Date(2013, 8, 28, 13, 0, 0, 0, athens),
		AddressedTo:   "https://olive.example/2013/08/harvest-time/#comment-5",
		Geo:           &blogharvest.Geo{Latitude: -33.5, Longitude: 151.25},
		HasReply:      true,
		NumReplies:    1,
		PostURL:       "https://olive.example/2013/08/harvest-time/",
		ParentID:      "comment-5",
		ParentURL:     "https://olive.example/2013/08/harvest-time/#comment-5",
	}
}

// replyComment answers fullComment and names its parent only by ID.
func replyComment() *blogharvest.Comment {
	return &blogharvest.Comment{ID: "comment-8", Author: "Eleni P.", Content: "Thanks!", ContentFormat: "text/plain",
		ParentID: "comment-7", URL: "https://olive.example/2013/08/harvest-time/#comment-8"}
}

// minimalComment sets only what a valid Comment needs.
func minimalComment() *blogharvest.Comment {
	return &blogharvest.Comment{ID: "comment-1"}
}

// fullOptions sets every option.
func fullOptions(id string) marc.Options {
	return marc.Options{ID: id, Updated: updated, Language: "el", ParentID: "parent-record",
		ParentCommentID: "parent-comment-record", OrgCode: "XxEL"}
}

// longEntry is an English post whose article is far longer than one ISO
// 2709 field, with line breaks in and outside <pre>, and whose title opens
// with an article.
func longEntry() *blogharvest.Entry {
	e := minimalEntry()
	e.Kind, e.URL, e.Title = blogharvest.KindPost, "https://olive.example/2014/01/the-long-winter/", "The long winter"
	e.Author, e.Aliases = "Papadopoulou, Eleni", []string{"https://olive.example/?p=99"}
	e.AltIdentifier, e.ContentFormat = "olive-99", "text/html"
	var b strings.Builder
	for i := 0; b.Len() < 30000; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d: the press ran\r\nall night, and the oil was green and peppery; “καλό λάδι”.</p>\n", i)
		if i%40 == 0 {
			b.WriteString("<pre>kg\tlitres\n120\t21\r\n</pre>\n")
		}
	}
	e.Content = b.String()
	e.Categories, e.Tags = []string{"Farm"}, []string{"winter", "oil"}
	return e
}
