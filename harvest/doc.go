// Package harvest crawls a blog and streams what it finds as blogharvest
// records: NewCrawl harvests a blog from scratch, UpdateCrawl harvests what
// changed since a date. Both are stateless: everything they need comes from
// the web and their arguments.
package harvest
