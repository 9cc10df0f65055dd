package render

// ProfileDir returns the --user-data-dir of the running browser, for tests.
func (b *Browser) ProfileDir() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inst == nil {
		return ""
	}
	return b.inst.dir
}
