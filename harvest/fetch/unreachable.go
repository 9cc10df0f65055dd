package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// UnreachableError is a host that gave no HTTP answer: the connection was
// refused or reset, its name did not resolve, the TLS handshake failed,
// or it timed out. Its message names the cause in plain words ("host
// blog.example unreachable (connection refused)"), then the network
// error; it unwraps to that error, so errors.As still finds a
// *net.DNSError or a *tls.CertificateVerificationError in it.
//
// A page whose host's robots.txt could not be asked for because the host
// is unreachable fails with one (Robots set): nothing was disallowed, and
// the message does not say so.
type UnreachableError struct {
	URL    string // the URL asked for
	Cause  string // the cause in plain words (netCause)
	Robots bool   // the failed request was the host's robots.txt, asked before URL
	Err    error  // the network error
}

// Error names the host, the cause in plain words and the network error.
func (e *UnreachableError) Error() string {
	host := e.URL
	if u, err := url.Parse(e.URL); err == nil && u.Host != "" {
		host = u.Host
	}
	s := fmt.Sprintf("fetch %s: host %s unreachable (%s)", e.URL, host, e.Cause)
	if e.Robots {
		s += " when asked for robots.txt"
	}
	return s + ": " + innermost(e.Err)
}

// Unwrap returns the network error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// unreachable wraps err, a failed request for u, in an *UnreachableError
// when netCause recognises it; otherwise it returns err as it is.
func unreachable(u string, err error, robots bool) error {
	cause, ok := netCause(err)
	if !ok {
		return err
	}
	return &UnreachableError{URL: u, Cause: cause, Robots: robots, Err: err}
}

// netCause names in plain words why a request got no HTTP answer; ok is
// false for an error that is no network failure (a refused address, a
// redirect out of scope, …).
func netCause(err error) (cause string, ok bool) {
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var hostname x509.HostnameError
	var authority x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var header tls.RecordHeaderError
	var alert tls.AlertError
	var timeout *TimeoutError
	var ne net.Error
	switch {
	case err == nil, errors.Is(err, ErrRefused), errors.Is(err, ErrOutOfScope):
		return "", false
	case errors.As(err, &timeout):
		return "timed out: " + timeout.What + " timeout after " + timeout.After.String(), true
	case errors.As(err, &dns) && dns.IsNotFound:
		return "no such host: DNS lookup found no address", true
	case errors.As(err, &dns) && dns.IsTimeout:
		return "DNS lookup timed out", true
	case errors.As(err, &dns):
		return "DNS lookup failed", true
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", true
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset", true
	case errors.Is(err, syscall.EHOSTUNREACH):
		return "no route to host", true
	case errors.Is(err, syscall.ENETUNREACH):
		return "network unreachable", true
	case errors.As(err, &cert), errors.As(err, &hostname), errors.As(err, &authority), errors.As(err, &invalid):
		return "TLS certificate not accepted", true
	case errors.As(err, &header):
		return "TLS handshake failed: not a TLS server", true
	case errors.As(err, &alert), strings.Contains(err.Error(), "tls: "):
		return "TLS handshake failed", true
	case errors.As(err, &ne) && ne.Timeout():
		return "timed out", true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed before an answer", true
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return "network error", true
	}
	return "", false
}

// innermost is the text of the lowest error of err's chain that still
// says what failed: the *net.OpError ("dial tcp 192.0.2.1:80: connect:
// connection refused") or the *net.DNSError, else err itself.
func innermost(err error) string {
	var dns *net.DNSError
	var op *net.OpError
	var ue *UnreachableError
	switch {
	case errors.As(err, &ue):
		return innermost(ue.Err)
	case errors.As(err, &dns):
		return dns.Error()
	case errors.As(err, &op):
		return op.Error()
	}
	return err.Error()
}
