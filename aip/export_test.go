package aip

// SetTestHook sets the hook a Writer calls after each file it writes into
// .tmp and right before publishing a bag (see testHook); nil removes it.
// Set it before the first write.
func SetTestHook(f func(final, event string)) { testHook = f }

// SetIdentifyFormats turns PRONOM format identification on or off (on by
// default). Off, no siegfried signatures are loaded and every file's format
// identification event says "no match".
func SetIdentifyFormats(on bool) { identifyOff = !on }

// SetMETSHook sets a function the Writer passes every METS document it
// builds through before validating and writing it (tests break documents
// with it); nil removes it.
func SetMETSHook(f func([]byte) []byte) { metsHook = f }
