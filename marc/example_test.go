package marc_test

import (
	"fmt"
	"os"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
)

// Example turns a harvested post into MARCXML after linting it.
func Example() {
	e := &blogharvest.Entry{
		BlogID:        "olive-grove",
		Kind:          blogharvest.KindPost,
		URL:           "https://olive.example/2013/08/harvest-time/",
		Title:         "Harvest time",
		Author:        "Eleni P.",
		Content:       "<p>The first olives came in.</p>",
		ContentFormat: "text/html",
		Created:       time.Date(2013, 8, 28, 10, 44, 8, 0, time.UTC),
		Categories:    []string{"Farm"},
		Captured:      time.Date(2024, 3, 5, 9, 30, 0, 0, time.UTC),
	}
	rec := marc.FromEntry(e, marc.Options{
		ID:       "8a2e6c14-3b5f-5d70-a1c9-7e4b2d9f0c63",
		Updated:  time.Date(2024, 3, 5, 9, 31, 2, 0, time.UTC),
		Language: "en",
	})
	for _, p := range marc.Lint(rec) {
		fmt.Println(p)
	}
	out, err := rec.MarshalMARCXML()
	if err != nil {
		fmt.Println(err)
		return
	}
	os.Stdout.Write(out)
	// Output:
	// <record xmlns="http://www.loc.gov/MARC21/slim">
	//   <leader>00000naa a22000007n 4500</leader>
	//   <controlfield tag="001">8a2e6c14-3b5f-5d70-a1c9-7e4b2d9f0c63</controlfield>
	//   <controlfield tag="005">20240305093102.0</controlfield>
	//   <controlfield tag="008">240305s2013    xx |||| o     000 ||eng d</controlfield>
	//   <datafield tag="100" ind1="0" ind2=" ">
	//     <subfield code="a">Eleni P.</subfield>
	//   </datafield>
	//   <datafield tag="245" ind1="1" ind2="0">
	//     <subfield code="a">Harvest time</subfield>
	//   </datafield>
	//   <datafield tag="264" ind1=" " ind2="1">
	//     <subfield code="c">2013-08-28T10:44:08Z</subfield>
	//   </datafield>
	//   <datafield tag="269" ind1=" " ind2=" ">
	//     <subfield code="c">2013-08-28T10:44:08Z</subfield>
	//   </datafield>
	//   <datafield tag="336" ind1=" " ind2=" ">
	//     <subfield code="a">text</subfield>
	//     <subfield code="b">txt</subfield>
	//     <subfield code="2">rdacontent</subfield>
	//   </datafield>
	//   <datafield tag="337" ind1=" " ind2=" ">
	//     <subfield code="a">computer</subfield>
	//     <subfield code="b">c</subfield>
	//     <subfield code="2">rdamedia</subfield>
	//   </datafield>
	//   <datafield tag="338" ind1=" " ind2=" ">
	//     <subfield code="a">online resource</subfield>
	//     <subfield code="b">cr</subfield>
	//     <subfield code="2">rdacarrier</subfield>
	//   </datafield>
	//   <datafield tag="347" ind1=" " ind2=" ">
	//     <subfield code="a">text file</subfield>
	//     <subfield code="b">HTML</subfield>
	//     <subfield code="2">rdaft</subfield>
	//   </datafield>
	//   <datafield tag="520" ind1=" " ind2=" ">
	//     <subfield code="3">full_content</subfield>
	//     <subfield code="a">&lt;p&gt;The first olives came in.&lt;/p&gt;</subfield>
	//     <subfield code="b">text/html</subfield>
	//   </datafield>
	//   <datafield tag="520" ind1=" " ind2=" ">
	//     <subfield code="3">uri</subfield>
	//     <subfield code="u">https://olive.example/2013/08/harvest-time/</subfield>
	//   </datafield>
	//   <datafield tag="653" ind1="1" ind2=" ">
	//     <subfield code="a">Farm</subfield>
	//   </datafield>
	//   <datafield tag="856" ind1="4" ind2="0">
	//     <subfield code="u">https://olive.example/2013/08/harvest-time/</subfield>
	//   </datafield>
	//   <datafield tag="980" ind1=" " ind2=" ">
	//     <subfield code="a">BLOGPOST</subfield>
	//     <subfield code="b">post</subfield>
	//   </datafield>
	// </record>
}
