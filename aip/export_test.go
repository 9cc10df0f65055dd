package aip

// SetTestHook sets the hook a Writer calls after each file it writes into
// .tmp and right before publishing a bag (see testHook); nil removes it.
// Set it before the first write.
func SetTestHook(f func(final, event string)) { testHook = f }
