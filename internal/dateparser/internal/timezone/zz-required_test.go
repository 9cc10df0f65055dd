package timezone

import (
	"strings"
	"testing"
)

// TestMayMatchIsNecessary checks the literal test PopTzOffset puts before
// each offset's expression (blogharvest): for every offset and every test
// string, when the expression matches, mayMatch is true; and PopTzOffset
// returns what upstream's loop, every expression run in turn, returns.
// The strings: each offset's name around other text, in other cases, with
// the letters whose case folding leaves ASCII (K: the Kelvin sign, S: the
// long s), and dates as pages write them.
func TestMayMatchIsNecessary(t *testing.T) {
	loadOffsets()
	strs := []string{
		"", "2019-03-05", "March 5, 2019 at 10:00 am", "5 March 2019 10:00 +0530", "Tue, 05 Mar 2019 10:00:00 GMT",
		"2019-03-05T10:00:00Z", "2019-03-05T10:00:00+05:30", "10:00 UTC+5:30", "10:00 GMT-3", "10:00 utc+05:45",
		"posted 3 hours ago", "2019年3月5日 10:00 JST", "5 de marzo de 2019, 10:00 CET", "latest post 12:00 est",
		"10:00 pm PST", "10:00 pdt", "10:00 (CEST)", "10:00 MSK.", "at midnight", "12:00 a.m. AKST",
		"2019-03-05 10:00", "2019-03-05 10:00 GMT-03:30", "10:00 utc-0330", "10:00 gmt-03", "10:00 -03:30 UTC", "10:00 GMT -0300",
	}
	fold := strings.NewReplacer("K", "\u212a", "k", "\u212a", "S", "\u017f", "s", "\u017f")
	for _, o := range timezoneOffsets {
		for _, s := range []string{o.Name, strings.ToLower(o.Name), fold.Replace(o.Name)} {
			strs = append(strs, "10:00 "+s, "1"+s+" ", "x"+s+"y")
		}
	}
	matches := 0
	for _, str := range strs {
		for _, o := range timezoneOffsets {
			if o.Regex.MatchString(str) {
				matches++
				if !o.mayMatch(str) {
					t.Errorf("%q: %s (%q) matches, mayMatch(%q) says it cannot (need %q)", str, o.Name, o.Regex.String(), str, o.need)
				}
			}
		}
		got, gotData := PopTzOffset(str)
		want, wantData := upstreamPop(str)
		if got != want || gotData.Name != wantData.Name || gotData.Offset != wantData.Offset || gotData.Regex != wantData.Regex {
			t.Errorf("PopTzOffset(%q) = %q, %s %d; upstream's loop: %q, %s %d", str, got, gotData.Name, gotData.Offset, want, wantData.Name, wantData.Offset)
		}
	}
	skippable := 0
	for _, o := range timezoneOffsets {
		if o.need != "" {
			skippable++
		}
	}
	t.Logf("%d strings, %d offsets (%d with a literal), %d matches", len(strs), len(timezoneOffsets), skippable, matches)
	if matches < len(timezoneOffsets) || skippable < len(timezoneOffsets)*9/10 {
		t.Errorf("%d matches of %d offsets, %d with a literal: the test checks too little", matches, len(timezoneOffsets), skippable)
	}
}

// upstreamPop is PopTzOffset without the literal test, as upstream has it.
func upstreamPop(str string) (string, OffsetData) {
	if rxSearchIgnoreCase.MatchString(str) {
		for _, offsetData := range timezoneOffsets {
			idxs := offsetData.Regex.FindStringIndex(str)
			if len(idxs) == 0 {
				continue
			}
			str = str[:idxs[0]+1] + str[idxs[1]:]
			return str, offsetData
		}
	}
	return str, OffsetData{}
}

// FuzzPopTzOffsetAsUpstream draws strings for TestMayMatchIsNecessary's
// comparison of PopTzOffset, which returns before the search expression
// when no offset may match (blogharvest), with upstream's loop.
func FuzzPopTzOffsetAsUpstream(f *testing.F) {
	for _, s := range []string{"10:00 UTC+5:30", "2019-03-05 10:00", "10:00 pm P\u017fT", "x\u212aSTy", "12:00 a.m. AKST", "updated"} {
		f.Add(s)
	}
	loadOffsets()
	f.Fuzz(func(t *testing.T, s string) {
		got, gotData := PopTzOffset(s)
		want, wantData := upstreamPop(s)
		if got != want || gotData.Name != wantData.Name || gotData.Offset != wantData.Offset || gotData.Regex != wantData.Regex {
			t.Fatalf("PopTzOffset(%q) = %q, %s %d; upstream's loop: %q, %s %d", s, got, gotData.Name, gotData.Offset, want, wantData.Name, wantData.Offset)
		}
	})
}
