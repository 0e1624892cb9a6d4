// Package openapi builds the API's OpenAPI document, backend/httpapi/openapi.json, from its YAML
// source in this folder: openapi.yaml holds the document's head and the shared components, each
// file in paths/ the operations of one resource (keyed by path), each file in schemas/ the
// schemas of one resource (keyed by name). References always point into the built document
// (#/components/schemas/Link), whichever file they are written in.
package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Bundle reads openapi.yaml, paths/*.yaml and schemas/*.yaml from src and returns the JSON
// document: openapi.yaml with its empty paths and components.schemas filled from those folders,
// files in name order and keys in the order written. Returns an error when a path or a schema
// is defined twice or a file holds what JSON cannot (anchors, aliases, timestamps).
func Bundle(src fs.FS) ([]byte, error) {
	root, err := readMapping(src, "openapi.yaml")
	if err != nil {
		return nil, err
	}
	paths, err := placeholder(root, "paths")
	if err != nil {
		return nil, err
	}
	components := value(root, "components")
	if components == nil || components.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("openapi.yaml: no components mapping")
	}
	schemas, err := placeholder(components, "schemas")
	if err != nil {
		return nil, err
	}
	if err := fill(src, "paths", paths); err != nil {
		return nil, err
	}
	if err := fill(src, "schemas", schemas); err != nil {
		return nil, err
	}

	var out bytes.Buffer
	if err := writeJSON(&out, root, ""); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// placeholder returns the empty mapping under key that the parts fill.
func placeholder(m *yaml.Node, key string) (*yaml.Node, error) {
	v := value(m, key)
	if v == nil || v.Kind != yaml.MappingNode || len(v.Content) != 0 {
		return nil, fmt.Errorf("openapi.yaml: %s must be an empty mapping ({}), filled from the %s folder", key, key)
	}
	return v, nil
}

// fill appends the entries of every dir/*.yaml file to into.
func fill(src fs.FS, dir string, into *yaml.Node) error {
	names, err := fs.Glob(src, dir+"/*.yaml")
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("%s: no .yaml files", dir)
	}
	defined := map[string]string{}
	for _, name := range names { // fs.Glob returns names in lexical order
		part, err := readMapping(src, name)
		if err != nil {
			return err
		}
		for i := 0; i < len(part.Content); i += 2 {
			key := part.Content[i].Value
			if other, ok := defined[key]; ok {
				return fmt.Errorf("%s: %s is also defined in %s", name, key, other)
			}
			defined[key] = name
		}
		into.Content = append(into.Content, part.Content...)
	}
	return nil
}

// readMapping parses one YAML file whose top level is a mapping.
func readMapping(src fs.FS, name string) (*yaml.Node, error) {
	b, err := fs.ReadFile(src, name)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: the top level must be a mapping", name)
	}
	return doc.Content[0], nil
}

// value returns the value under key in the mapping m, or nil.
func value(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// writeJSON writes n as JSON indented by two spaces, as encoding/json's MarshalIndent does.
func writeJSON(out *bytes.Buffer, n *yaml.Node, indent string) error {
	at := func() string { return fmt.Sprintf("line %d", n.Line) }
	if n.Anchor != "" {
		return fmt.Errorf("%s: anchors are not supported", at())
	}
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			out.WriteString("{}")
			return nil
		}
		out.WriteString("{\n")
		seen := map[string]bool{}
		for i := 0; i < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.Value == "<<" {
				return fmt.Errorf("line %d: keys must be plain scalars", k.Line)
			}
			if seen[k.Value] {
				return fmt.Errorf("line %d: key %q twice", k.Line, k.Value)
			}
			seen[k.Value] = true
			out.WriteString(indent + "  ")
			writeString(out, k.Value)
			out.WriteString(": ")
			if err := writeJSON(out, v, indent+"  "); err != nil {
				return err
			}
			if i+2 < len(n.Content) {
				out.WriteByte(',')
			}
			out.WriteByte('\n')
		}
		out.WriteString(indent + "}")
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			out.WriteString("[]")
			return nil
		}
		out.WriteString("[\n")
		for i, v := range n.Content {
			out.WriteString(indent + "  ")
			if err := writeJSON(out, v, indent+"  "); err != nil {
				return err
			}
			if i+1 < len(n.Content) {
				out.WriteByte(',')
			}
			out.WriteByte('\n')
		}
		out.WriteString(indent + "]")
	case yaml.ScalarNode:
		return writeScalar(out, n)
	case yaml.AliasNode:
		return fmt.Errorf("%s: aliases are not supported", at())
	default:
		return fmt.Errorf("%s: unexpected YAML node", at())
	}
	return nil
}

func writeScalar(out *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!str":
		writeString(out, n.Value)
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return fmt.Errorf("line %d: %q is not a boolean", n.Line, n.Value)
		}
		out.WriteString(strconv.FormatBool(b))
	case "!!null":
		out.WriteString("null")
	case "!!int", "!!float":
		// Written as in the source when JSON reads it as the same number (10, 0.5, 1e3).
		if !json.Valid([]byte(n.Value)) {
			return fmt.Errorf("line %d: %q is not a JSON number: write it in decimal", n.Line, n.Value)
		}
		out.WriteString(n.Value)
	default:
		return fmt.Errorf("line %d: %q reads as %s: quote it", n.Line, n.Value, n.ShortTag())
	}
	return nil
}

// writeString writes s as a JSON string, leaving <, > and & as they are.
func writeString(out *bytes.Buffer, s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	out.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
