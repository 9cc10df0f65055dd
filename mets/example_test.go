package mets_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/mets"
)

// Example writes a METS document describing one captured file.
func Example() {
	d := &mets.Document{
		ObjID:   "urn:uuid:6ba7b810-9dad-51d1-80b4-00c04fd430c8",
		Type:    "Entry",
		Created: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC),
		Agents:  []mets.Agent{{Role: "CREATOR", Type: "OTHER", OtherType: "SOFTWARE", Name: "blogharvest 0.1.0"}},
		AmdSecs: []mets.AmdSec{{ID: "amd-page", Objects: []mets.Object{{ID: "obj-page", Size: 5, FormatName: "text/html",
			SHA256: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"}}}},
		FileGroups: []mets.FileGroup{{Use: "original", Files: []mets.File{{ID: "file-page", MimeType: "text/html",
			Size: 5, Checksum: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
			Href: "objects/page/index.html", AdmIDs: []string{"amd-page"}}}}},
		StructMap: mets.Div{Type: "Entry", Fptrs: []string{"file-page"}},
	}
	out, err := d.Marshal()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s", out[:strings.Index(string(out), "<mets:metsHdr")])
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <mets:mets xmlns:mets="http://www.loc.gov/METS/" xmlns:premis="http://www.loc.gov/premis/v3" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.loc.gov/METS/ http://www.loc.gov/standards/mets/version1121/mets.xsd http://www.loc.gov/premis/v3 http://www.loc.gov/standards/premis/v3/premis-v3-0.xsd http://www.loc.gov/MARC21/slim http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd http://www.w3.org/1999/xlink http://www.loc.gov/standards/xlink/xlink.xsd" OBJID="urn:uuid:6ba7b810-9dad-51d1-80b4-00c04fd430c8" TYPE="Entry">
}
