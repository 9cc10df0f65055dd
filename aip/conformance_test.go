package aip_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
)

// conformance is the LoC BagIt conformance suite, shared by the project.
const conformance = "../../shared/bagit-conformance"

// TestBagItConformance runs Check on every bag of the LoC suite: bags in
// valid/ must pass, bags in invalid/ and linux-only/ must fail. Bags in
// warning/ are valid but dubious; what Check says about them is logged.
func TestBagItConformance(t *testing.T) {
	if _, err := os.Stat(conformance); err != nil {
		t.Skip("conformance suite absent:", err)
	}
	versions, _ := filepath.Glob(filepath.Join(conformance, "v*"))
	var n int
	for _, v := range versions {
		for _, class := range []string{"valid", "invalid", "linux-only", "warning"} {
			bags, _ := filepath.Glob(filepath.Join(v, class, "*"))
			for _, bag := range bags {
				if info, err := os.Stat(bag); err != nil || !info.IsDir() {
					continue // Makefiles and the like
				}
				n++
				errs := aip.Check(bag)
				switch {
				case class == "valid" && len(errs) > 0:
					t.Errorf("%s: valid bag rejected:\n%v", bag, errors.Join(errs...))
				case (class == "invalid" || class == "linux-only") && len(errs) == 0:
					t.Errorf("%s: invalid bag accepted", bag)
				case class == "warning":
					t.Logf("%s: %d problems %v", bag, len(errs), errs)
				}
				if got := len(aip.CheckBag(bag)); got != len(errs) {
					t.Errorf("%s: CheckBag found %d problems, Check %d (no METS: they must agree)", bag, got, len(errs))
				}
			}
		}
	}
	if n < 40 {
		t.Errorf("ran %d bags of the suite; is it complete?", n)
	}
}
