// Copyright 2022 Richard Lehane. All rights reserved.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

//go:generate go run gen.go
package static

import (
	"bytes"
	_ "embed"

	"github.com/blogharvest/blogharvest/internal/siegfried"
)

// sfinflated is sfcontent inflated: its header, then the content
// (blogharvest: written by internal/copies/gen.sh from signature.go).
//
//go:embed signature.sf
var sfinflated []byte

// New loads the compiled-in signature file from its inflated form, read in
// place (blogharvest: upstream inflated sfcontent into a new buffer at
// every load; the signatures and their answers are the same, see
// NewDeflated).
func New() *siegfried.Siegfried {
	sf, _ := siegfried.LoadInflated(sfinflated)
	return sf
}

// NewDeflated loads the compiled-in signature file upstream's way, from
// its deflated form (blogharvest: upstream's New, kept for the test that
// both forms give the same identifications).
func NewDeflated() *siegfried.Siegfried {
	rc := bytes.NewBuffer(sfcontent)
	sf, _ := siegfried.LoadReader(rc)
	return sf
}
