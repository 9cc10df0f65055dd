package aip

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// Tag file names.
const (
	bagitTxt   = "bagit.txt"
	bagInfoTxt = "bag-info.txt"
	bagitDecl  = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"
)

// algorithms are the digests written for payload and tag manifests.
var algorithms = []string{"sha256", "sha512"}

// commit writes the bag into a Staged bag of st and publishes it at
// final (a store name), or, with a Batch, leaves it staged in b for the
// batch's flush to publish (batch.go). The local store works only under
// the archive lock, checked when staging begins and again right before the
// rename. On error nothing is left behind.
func (w *Writer) commit(ctx context.Context, st Store, p *pkg, e env, final string, b *Batch) (n int64, err error) {
	sb, err := st.Stage(ctx, final)
	if err != nil {
		return 0, fmt.Errorf("aip: %w", err)
	}
	defer func() {
		if err != nil {
			sb.Abort(context.WithoutCancel(ctx))
		}
	}()
	files, err := p.writeBag(ctx, sb, e, Location(st, final))
	if err != nil {
		return 0, fmt.Errorf("aip: %w", err)
	}
	if b != nil {
		// A staged bag holds no descriptor until its flush (which
		// syncs and publishes it by its path): a batch of eight bags
		// of eight folders each would otherwise hold 64 per crawl,
		// and a daemon's harvests run out of a modest open-file limit.
		if ls, ok := sb.(*localStaged); ok {
			ls.dir.close()
		}
		b.bags = append(b.bags, &pending{st: st, sb: sb, p: p, final: final, bytes: files.bytes()})
		return files.bytes(), nil
	}
	if _, local := st.(*Local); !local && testHook != nil {
		testHook(Location(st, final), "publish") // Local's publish calls it itself, after its syncs
	}
	if err = sb.Publish(ctx); err != nil {
		return 0, fmt.Errorf("aip: %w", err)
	}
	if aerr := w.announce(context.WithoutCancel(ctx), st, p, final); aerr != nil && w.AnnounceFailed != nil {
		w.AnnounceFailed(Location(st, final), aerr) // published all the same: Unannounced finds it
	}
	return files.bytes(), nil
}

// payloadTally counts the payload as Tally does: every file under data/.
func (p *pkg) payloadTally() (files int, bytes int64) {
	for _, it := range p.items {
		bytes += it.size
	}
	return len(p.items), bytes
}

// testHook, if set (by tests only), is called with the version folder
// being written and an event: the bag-relative path of each file once it
// is written into .tmp, then "publish" right before the checks that
// precede the rename.
var testHook func(final, event string)

// publish makes the bag in tmp durable, checks that the archive is still
// locked and the bag still whole, and renames it to final, which must not
// exist yet (rename refuses to replace a non-empty folder, so an existing
// version is never touched). No symbolic link below root is followed on
// the way to final or tmp (nofollow.go): a linked blog, entries, year or
// entry folder fails the write with a *SymlinkError naming it.
func publish(lock *ArchiveLock, root string, bag *stageDir, final string, files bagFiles) error {
	if err := syncBag(bag); err != nil {
		return err
	}
	return publishSynced(lock, root, bag, final, files, true)
}

// publishSynced is publish of a bag already made durable (by a group
// commit's one sync, batch.go). Without sync, neither the new folders on
// the way to final nor the two parents of the rename are fsynced: the
// caller syncs the file system once after all its renames, before it
// reports any of them published.
func publishSynced(lock *ArchiveLock, root string, bag *stageDir, final string, files bagFiles, sync bool) error {
	if testHook != nil {
		testHook(final, "publish")
	}
	if err := lock.verify(root); err != nil {
		return err
	}
	rootfd, done := lock.rootDir(root)
	defer done()
	var dst int
	var err error
	if sync {
		dst, err = openDirBelow(rootfd, root, filepath.Dir(final), true, bag.modes) // made if missing; a link on the way is refused
	} else {
		dst, err = openDirBelowUnsynced(rootfd, root, filepath.Dir(final), bag.modes)
	}
	if err != nil {
		return err
	}
	defer unix.Close(dst)
	src, err := openDirBelow(rootfd, root, filepath.Dir(bag.path), false, Modes{})
	if err != nil {
		return err
	}
	defer unix.Close(src)
	if err := files.verify(src, filepath.Base(bag.path), bag.path); err != nil {
		return err
	}
	return renameAt(src, bag.path, dst, final, sync)
}

// writeBag writes payload, manifests and tag files into sb, the bag to be
// published as final, and returns what it wrote.
func (p *pkg) writeBag(ctx context.Context, sb Staged, e env, final string) (bagFiles, error) {
	var files bagFiles
	var octets int64
	for _, it := range p.items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rel := "data/" + it.rel
		n, err := it.put(ctx, sb, rel)
		if err != nil {
			return nil, err
		}
		octets += n
		files = append(files, bagFile{rel: rel, size: n})
		if testHook != nil {
			testHook(final, rel)
		}
	}
	tags := []tagFile{{bagitTxt, []byte(bagitDecl)}, {bagInfoTxt, p.bagInfo(e, octets)}}
	for _, alg := range algorithms {
		tags = append(tags, tagFile{"manifest-" + alg + ".txt", p.manifest(alg)})
	}
	for _, alg := range algorithms {
		tags = append(tags, tagFile{"tagmanifest-" + alg + ".txt", tagManifest(alg, tags)})
	}
	for _, t := range tags {
		n, err := sb.Put(ctx, t.name, bytes.NewReader(t.body), int64(len(t.body)))
		if err != nil {
			return nil, err
		}
		files = append(files, bagFile{rel: t.name, size: n, body: t.body})
		if testHook != nil {
			testHook(final, t.name)
		}
	}
	return files, nil
}

// tagFile is a tag file's name and content.
type tagFile struct {
	name string
	body []byte
}

// put writes the item as rel of sb and re-checks the sha256 of content
// read from disk.
func (it *item) put(ctx context.Context, sb Staged, rel string) (int64, error) {
	if it.src == "" {
		return sb.Put(ctx, rel, bytes.NewReader(it.body), it.size)
	}
	f, err := it.openSrc()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	h := newHash("sha256")
	n, err := sb.Put(ctx, rel, io.TeeReader(f, h), it.size)
	if err == nil && fmt.Sprintf("%x", h.Sum(nil)) != it.sha256 {
		err = fmt.Errorf("%s changed while it was archived", it.src)
	}
	return n, err
}

// manifest returns the payload manifest for alg, sorted by path.
func (p *pkg) manifest(alg string) []byte {
	lines := make([]string, len(p.items))
	for i, it := range p.items {
		sum := it.sha256
		if alg == "sha512" {
			sum = it.sha512
		}
		lines[i] = sum + "  " + encodePath("data/"+it.rel) + "\n"
	}
	sort.Strings(lines)
	return []byte(strings.Join(lines, ""))
}

// tagManifest returns the tag manifest for alg over tags.
func tagManifest(alg string, tags []tagFile) []byte {
	var b bytes.Buffer
	for _, t := range tags {
		if strings.HasPrefix(t.name, "tagmanifest-") {
			continue
		}
		h := newHash(alg)
		h.Write(t.body)
		fmt.Fprintf(&b, "%x  %s\n", h.Sum(nil), t.name)
	}
	return b.Bytes()
}

// description returns bag-info.txt's External-Description: what the METS
// holds. A requisites package has no descriptive record
// (doc/mets-profile.md, TYPE).
func (p *pkg) description() string {
	if p.kind == kindRequisites {
		return p.kind + " AIP: METS 1.12.1 with PREMIS 3, no descriptive record (page requisites), in data/METS.xml"
	}
	return p.kind + " AIP: METS 1.12.1 with MARCXML and PREMIS 3 in data/METS.xml"
}

// bagInfo returns bag-info.txt.
func (p *pkg) bagInfo(e env, octets int64) []byte {
	sender := p.blogID + "/" + p.key + "/" + versionName(p.version)
	if p.kind == kindBlog {
		sender = p.blogID + "/blog/" + versionName(p.version)
	}
	fields := [][2]string{
		{"Source-Organization", e.org},
		{"Bagging-Date", e.now.Format("2006-01-02")},
		{"Bag-Software-Agent", joinNonEmpty(e.software, e.version)},
		{"External-Identifier", oneLine(p.permalink)},
		{"External-Description", p.description()},
		{"Bag-Group-Identifier", p.blogID},
		{"Internal-Sender-Identifier", sender},
		{contentDigestLabel, p.digest},
		{"Payload-Oxum", fmt.Sprintf("%d.%d", octets, len(p.items))},
	}
	var b bytes.Buffer
	for _, f := range fields {
		fmt.Fprintf(&b, "%s: %s\n", f[0], f[1])
	}
	return b.Bytes()
}

// contentDigestLabel is the bag-info.txt label of the content digest that
// decides whether a new version is needed.
const contentDigestLabel = "Content-Digest"

// encodePath percent-encodes CR, LF and '%' in a manifest path (RFC 8493 §2.1.3).
func encodePath(p string) string {
	if !strings.ContainsAny(p, "%\r\n") {
		return p
	}
	return pathEncoder.Replace(p)
}

// pathEncoder is encodePath's replacer, built once: a strings.Replacer
// builds its tables at the first Replace (64 KB and more), which per call
// was 2.6 % of all the bytes a whole crawl allocated.
var pathEncoder = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// readContentDigestFS returns the Content-Digest of the bag dir of fsys.
func readContentDigestFS(fsys fs.FS, dir string) (string, error) {
	data, err := fs.ReadFile(fsys, path.Join(dir, bagInfoTxt))
	if err != nil {
		return "", err
	}
	return contentDigestIn(dir, data)
}

// readExternalIdentifierFS returns the External-Identifier (the
// permalink) of the bag dir in fsys, "" when it cannot be read.
func readExternalIdentifierFS(fsys fs.FS, dir string) string {
	data, err := fs.ReadFile(fsys, path.Join(dir, bagInfoTxt))
	if err != nil {
		return ""
	}
	for _, f := range parseBagInfo(data) {
		if f.label == "External-Identifier" {
			return f.value
		}
	}
	return ""
}

// contentDigestIn returns the Content-Digest of bag-info.txt data.
func contentDigestIn(dir string, data []byte) (string, error) {
	for _, f := range parseBagInfo(data) {
		if f.label == contentDigestLabel {
			return f.value, nil
		}
	}
	return "", fmt.Errorf("%s: no %s", dir, contentDigestLabel)
}
