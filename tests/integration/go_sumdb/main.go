// The Go checksum database's own packages (golang.org/x/mod/sumdb/note and sumdb/tlog) judging arbiter's
// transparency log: notes, cosignatures, tree hashes and proofs (tests/integration/test_go_sumdb_interop.py).
//
//	check: reads a JSON case on stdin, prints {"errors": [...], "root": base64, ...}; with "tiles", the tree is read
//	       from C2SP tlog-tiles hash tiles by tlog.TileHashReader (which authenticates every tile against the tree)
//	sign:  reads {"name", "text"} on stdin, prints {"vkey", "note"} signed by a key Go generates
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type inclusion struct {
	Index int64    `json:"index"`
	Size  int64    `json:"size"`
	Leaf  string   `json:"leaf"`
	Proof []string `json:"proof"`
	Root  string   `json:"root"`
}

type consistency struct {
	Old     int64    `json:"old"`
	New     int64    `json:"new"`
	OldRoot string   `json:"old_root"`
	NewRoot string   `json:"new_root"`
	Proof   []string `json:"proof"`
}

type checkCase struct {
	Vkey        string            `json:"vkey"`
	Cosigners   []string          `json:"cosigners"`
	Note        string            `json:"note"`
	Leaves      []string          `json:"leaves"`
	Stored      []string          `json:"stored"`
	Inclusion   []inclusion       `json:"inclusion"`
	Consistency []consistency     `json:"consistency"`
	Tiles       map[string]string `json:"tiles"`      // tlog-tiles path (tile/<L>/<N>[.p/<W>]) -> base64 bytes
	TilesSize   int64             `json:"tiles_size"` // the checkpoint's size and root the tiles are read against
	TilesRoot   string            `json:"tiles_root"`
	TilesProve  []inclusion       `json:"tiles_prove"` // leaves whose proofs Go builds from the tiles and checks
}

type result struct {
	Errors      []string   `json:"errors"`
	Signers     []string   `json:"signers"`
	Origin      string     `json:"origin"`
	Size        int64      `json:"size"`
	Root        string     `json:"root"`
	LeavesRoot  string     `json:"leaves_root"`
	StoredEqual bool       `json:"stored_equal"`
	TilesRoot   string     `json:"tiles_root"`
	TileProofs  [][]string `json:"tile_proofs"`
}

// tileFiles serves tlog.TileReader from tlog-tiles files: the checksum database's tile path tile/8/L/N[.p/W] is
// tlog-tiles' tile/L/N[.p/W] with the height (always 8 there) dropped.
type tileFiles struct{ files map[string][]byte }

func (t tileFiles) Height() int { return 8 }
func (t tileFiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, tile := range tiles {
		path := "tile/" + strings.TrimPrefix(tile.Path(), "tile/8/")
		data, ok := t.files[path]
		if !ok {
			return nil, fmt.Errorf("no file %s", path)
		}
		out[i] = data
	}
	return out, nil
}
func (t tileFiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

// cosigVerifier checks a C2SP tlog-cosignature/v1 (algorithm 0x04): x/mod 0.7's note package knows only Ed25519
// (0x01) keys, so this verifier is written here from the C2SP text and plugged into note.Open.
type cosigVerifier struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func (v *cosigVerifier) Name() string    { return v.name }
func (v *cosigVerifier) KeyHash() uint32 { return v.hash }
func (v *cosigVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig[:8])
	signed := append([]byte("cosignature/v1\ntime "+strconv.FormatUint(t, 10)+"\n"), msg...)
	return ed25519.Verify(v.key, signed, sig[8:])
}

func newCosigVerifier(vkey string) (note.Verifier, error) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("malformed cosigner key %q", vkey)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != 0x04 {
		return nil, fmt.Errorf("cosigner key %q is not an Ed25519 cosignature key", vkey)
	}
	h := sha256.Sum256(append(append([]byte(parts[0]+"\n"), 0x04), raw[1:]...))
	hash := binary.BigEndian.Uint32(h[:4])
	if fmt.Sprintf("%08x", hash) != parts[1] {
		return nil, fmt.Errorf("cosigner key %q: wrong key hash", vkey)
	}
	return &cosigVerifier{parts[0], hash, ed25519.PublicKey(raw[1:])}, nil
}

func hash(s string) (tlog.Hash, error) {
	var h tlog.Hash
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw) != len(h) {
		return h, fmt.Errorf("not a base64 hash: %q", s)
	}
	copy(h[:], raw)
	return h, nil
}

func hashes(list []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(list))
	for i, s := range list {
		h, err := hash(s)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

func check(c checkCase) result {
	r := result{Errors: []string{}, Signers: []string{}}
	fail := func(format string, args ...interface{}) { r.Errors = append(r.Errors, fmt.Sprintf(format, args...)) }
	if c.Note != "" {
		var verifiers []note.Verifier
		v, err := note.NewVerifier(c.Vkey)
		if err != nil {
			fail("vkey: %v", err)
		} else {
			verifiers = append(verifiers, v)
		}
		for _, k := range c.Cosigners {
			cv, err := newCosigVerifier(k)
			if err != nil {
				fail("cosigner: %v", err)
				continue
			}
			verifiers = append(verifiers, cv)
		}
		n, err := note.Open([]byte(c.Note), note.VerifierList(verifiers...))
		if err != nil {
			fail("note: %v", err)
		} else {
			for _, s := range n.Sigs {
				r.Signers = append(r.Signers, s.Name)
			}
			lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
			if len(lines) < 3 {
				fail("checkpoint: fewer than three lines")
			} else {
				r.Origin = lines[0]
				r.Size, err = strconv.ParseInt(lines[1], 10, 64)
				if err != nil {
					fail("checkpoint size: %v", err)
				}
				r.Root = lines[2]
			}
		}
	}
	if len(c.Leaves) > 0 {
		var stored []tlog.Hash
		reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
			out := make([]tlog.Hash, len(indexes))
			for i, x := range indexes {
				out[i] = stored[x]
			}
			return out, nil
		})
		for i, l := range c.Leaves {
			data, err := base64.StdEncoding.DecodeString(l)
			if err != nil {
				fail("leaf %d: %v", i, err)
				return r
			}
			add, err := tlog.StoredHashes(int64(i), data, reader)
			if err != nil {
				fail("stored hashes: %v", err)
				return r
			}
			stored = append(stored, add...)
		}
		th, err := tlog.TreeHash(int64(len(c.Leaves)), reader)
		if err != nil {
			fail("tree hash: %v", err)
		}
		r.LeavesRoot = base64.StdEncoding.EncodeToString(th[:])
		if c.Stored != nil {
			theirs, err := hashes(c.Stored)
			r.StoredEqual = err == nil && len(theirs) == len(stored)
			for i := 0; r.StoredEqual && i < len(stored); i++ {
				r.StoredEqual = bytes.Equal(theirs[i][:], stored[i][:])
			}
		}
	}
	if c.Tiles != nil {
		files := map[string][]byte{}
		for path, b64 := range c.Tiles {
			data, err := base64.StdEncoding.DecodeString(b64)
			if err != nil {
				fail("tile %s: %v", path, err)
				return r
			}
			files[path] = data
		}
		root, err := hash(c.TilesRoot)
		if err != nil {
			fail("tiles root: %v", err)
			return r
		}
		hr := tlog.TileHashReader(tlog.Tree{N: c.TilesSize, Hash: root}, tileFiles{files})
		th, err := tlog.TreeHash(c.TilesSize, hr)
		if err != nil {
			fail("tiles: %v", err)
		} else {
			r.TilesRoot = base64.StdEncoding.EncodeToString(th[:])
		}
		for _, p := range c.TilesProve {
			data, _ := base64.StdEncoding.DecodeString(p.Leaf)
			proof, err := tlog.ProveRecord(c.TilesSize, p.Index, hr)
			if err == nil {
				err = tlog.CheckRecord(proof, c.TilesSize, root, p.Index, tlog.RecordHash(data))
			}
			if err != nil {
				fail("tiles: leaf %d: %v", p.Index, err)
				continue
			}
			list := []string{}
			for _, h := range proof {
				list = append(list, base64.StdEncoding.EncodeToString(h[:]))
			}
			r.TileProofs = append(r.TileProofs, list)
		}
	}
	for _, p := range c.Inclusion {
		proof, err1 := hashes(p.Proof)
		root, err2 := hash(p.Root)
		data, err3 := base64.StdEncoding.DecodeString(p.Leaf)
		if err1 != nil || err2 != nil || err3 != nil {
			fail("inclusion %d: unreadable", p.Index)
			continue
		}
		if err := tlog.CheckRecord(tlog.RecordProof(proof), p.Size, root, p.Index, tlog.RecordHash(data)); err != nil {
			fail("inclusion of %d in %d: %v", p.Index, p.Size, err)
		}
	}
	for _, p := range c.Consistency {
		proof, err1 := hashes(p.Proof)
		oldRoot, err2 := hash(p.OldRoot)
		newRoot, err3 := hash(p.NewRoot)
		if err1 != nil || err2 != nil || err3 != nil {
			fail("consistency %d->%d: unreadable", p.Old, p.New)
			continue
		}
		if err := tlog.CheckTree(tlog.TreeProof(proof), p.New, newRoot, p.Old, oldRoot); err != nil {
			fail("consistency %d->%d: %v", p.Old, p.New, err)
		}
	}
	return r
}

func main() {
	out := json.NewEncoder(os.Stdout)
	switch os.Args[1] {
	case "check":
		var c checkCase
		if err := json.NewDecoder(os.Stdin).Decode(&c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		out.Encode(check(c))
	case "sign":
		var req struct{ Name, Text string }
		if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		skey, vkey, err := note.GenerateKey(rand.Reader, req.Name)
		if err == nil {
			var signer note.Signer
			signer, err = note.NewSigner(skey)
			if err == nil {
				var msg []byte
				msg, err = note.Sign(&note.Note{Text: req.Text}, signer)
				if err == nil {
					out.Encode(map[string]string{"vkey": vkey, "note": string(msg)})
					return
				}
			}
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
