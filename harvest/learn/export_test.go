package learn

// Hooks for the external tests.

// FastExtract runs only the fast path of Extract.
func (r *Rules) FastExtract(p Page) (Extraction, bool) { return r.fastExtract(p) }

// SlowExtract runs only the whole-page path of Extract.
func (r *Rules) SlowExtract(p Page) (Extraction, error) { return r.slowExtract(p) }
