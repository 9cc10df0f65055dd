// Package marc holds the MARC 21 record model, the BlogForever crosswalk from
// blogharvest.Blog, Entry and Comment to MARC (DESIGN §6), the MARCXML
// encoding, and a lint for what MARC21slim.xsd cannot check (leader
// positions, 008 length, required fields, subfield codes).
package marc
