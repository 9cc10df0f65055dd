package daemon

import "go.yaml.in/yaml/v3"

// keySets records which keys a config file sets, so that a key set to its
// zero value (delay: 0) is told from a key left out: only a key left out
// takes the defaults.
type keySets struct {
	top      map[string]bool
	defaults map[string]bool
	blogs    []map[string]bool
}

// presentKeys reads the keys set at the top of doc, under defaults and in
// each blog.
func presentKeys(doc *yaml.Node) keySets {
	ks := keySets{top: keysOf(doc), defaults: keysOf(mapValue(doc, "defaults"))}
	if blogs := seqNode(doc, "blogs"); blogs != nil {
		for _, item := range blogs.Content {
			ks.blogs = append(ks.blogs, keysOf(item))
		}
	}
	return ks
}

// blog returns the keys blog i sets; nil (nothing known) past the end.
func (ks keySets) blog(i int) map[string]bool {
	if i < len(ks.blogs) {
		return ks.blogs[i]
	}
	return nil
}

// keysOf returns the keys of mapping n; nil for anything else.
func keysOf(n *yaml.Node) map[string]bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	keys := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys[n.Content[i].Value] = true
	}
	return keys
}
