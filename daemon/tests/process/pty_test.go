package process_test

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// terminal is a pseudo-terminal: a command given tty as its stderr sees a
// real terminal, and what it draws there is read from the master side.
type terminal struct {
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

// newTerminal opens a pseudo-terminal (Linux /dev/ptmx), or skips the test
// when the system has none.
func newTerminal(t *testing.T) *terminal {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal (/dev/ptmx): %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: unlock: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term := &terminal{tty: tty, done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 4096)
		for {
			k, err := m.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:k])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { tty.Close(); m.Close() })
	return term
}

// drawn returns what was drawn on the terminal so far, after the slave
// side is closed (the command ended) and the master read everything.
func (term *terminal) drawn() string {
	term.tty.Close()
	<-term.done
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.out.String()
}
