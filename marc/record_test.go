package marc_test

import (
	"reflect"
	"testing"

	"github.com/blogharvest/blogharvest/marc"
)

func TestAccessors(t *testing.T) {
	r := marc.FromEntry(fullEntry(), fullOptions("e"))
	if _, ok := r.ControlValue("007"); ok {
		t.Error("ControlValue(007) found a field that is not there")
	}
	if v, ok := r.ControlValue("003"); !ok || v != "XxEL" {
		t.Errorf("ControlValue(003) = %q, %v; want the organization code XxEL", v, ok)
	}
	cats := r.Fields("653")
	if len(cats) != 3 {
		t.Fatalf("Fields(653) = %d fields, want 3", len(cats))
	}
	if got := cats[0].Values('a'); !reflect.DeepEqual(got, []string{"Farm"}) {
		t.Errorf("Values(a) = %q", got)
	}
	if got := cats[0].Values('x'); got != nil {
		t.Errorf("Values(x) = %q, want nil", got)
	}
	if got := cats[2].Value('a'); got != "olives" {
		t.Errorf("Value(a) = %q, want olives", got)
	}
	if got := cats[2].Value('x'); got != "" {
		t.Errorf("Value(x) = %q, want empty", got)
	}
}
