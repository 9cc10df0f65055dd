package s3store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// Config is where the bucket is and how to sign requests. Credentials are
// never part of an archive URL: they come from the environment or a file
// (Credentials).
type Config struct {
	Endpoint     string // host[:port] of the S3 API, such as "s3.example.org" or "127.0.0.1:8333"
	Insecure     bool   // plain HTTP (a loopback test server); default HTTPS
	Region       string // optional
	Bucket       string
	Prefix       string // the archive's folder in the bucket; "" the whole bucket
	AccessKey    string
	SecretKey    string
	SessionToken string
}

// IsURL reports whether archive names an S3 archive (s3://bucket/prefix).
func IsURL(archive string) bool { return strings.HasPrefix(archive, "s3://") }

// ParseURL returns the bucket and prefix of s3://bucket/prefix. A URL with
// user information, a query or a fragment is refused (credentials go in
// the environment or a file, never in the archive's name).
func ParseURL(archive string) (bucket, prefix string, err error) {
	u, err := url.Parse(archive)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return "", "", fmt.Errorf("archive %q: want s3://bucket/prefix", redact(archive))
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("archive %s: no credentials, query or fragment in the URL: put credentials in the environment or a credentials file", redact(archive))
	}
	return u.Host, strings.Trim(u.Path, "/"), nil
}

// redact drops user information, query and fragment from a URL for
// messages.
func redact(s string) string {
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i] + "…"
	}
	if i := strings.LastIndex(s, "@"); i >= 0 {
		return "s3://…" + s[i:]
	}
	return s
}

// FromEnv returns the Config of archive (s3://bucket/prefix) with the
// endpoint and credentials from the environment: BLOGHARVEST_S3_ENDPOINT or
// AWS_ENDPOINT_URL (a URL: http:// means Insecure), AWS_REGION,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; when
// credFile is set, the credentials come from that file instead (lines
// "key = value" or "KEY=value" with the same names, or aws_access_key_id /
// aws_secret_access_key as in ~/.aws/credentials).
func FromEnv(archive, credFile string) (Config, error) {
	bucket, prefix, err := ParseURL(archive)
	if err != nil {
		return Config{}, err
	}
	vals := map[string]string{}
	for _, k := range []string{"BLOGHARVEST_S3_ENDPOINT", "AWS_ENDPOINT_URL", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		if v := os.Getenv(k); v != "" {
			vals[k] = v
		}
	}
	if credFile != "" {
		data, err := os.ReadFile(credFile)
		if err != nil {
			return Config{}, fmt.Errorf("s3 credentials: %w", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), "=")
			if !ok || strings.HasPrefix(strings.TrimSpace(k), "#") {
				continue
			}
			vals[strings.ToUpper(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	cfg := Config{Bucket: bucket, Prefix: prefix, Region: vals["AWS_REGION"],
		AccessKey: vals["AWS_ACCESS_KEY_ID"], SecretKey: vals["AWS_SECRET_ACCESS_KEY"], SessionToken: vals["AWS_SESSION_TOKEN"]}
	ep := vals["BLOGHARVEST_S3_ENDPOINT"]
	if ep == "" {
		ep = vals["AWS_ENDPOINT_URL"]
	}
	if ep == "" {
		ep = "https://s3.amazonaws.com"
	}
	u, err := url.Parse(ep)
	if err != nil || u.Host == "" || u.User != nil {
		return Config{}, errors.New("s3 endpoint: want http(s)://host[:port] without credentials")
	}
	cfg.Endpoint, cfg.Insecure = u.Host, u.Scheme == "http"
	return cfg, cfg.validate()
}

// validate checks the Config names a bucket and an endpoint.
func (c Config) validate() error {
	switch {
	case c.Endpoint == "":
		return errors.New("s3: no endpoint")
	case c.Bucket == "":
		return errors.New("s3: no bucket")
	case c.AccessKey == "" || c.SecretKey == "":
		return fmt.Errorf("s3://%s: no credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a credentials file)", c.Bucket)
	}
	return nil
}
