// Package strictyaml decodes YAML into Go values without the silent
// coercions of gopkg.in/yaml.v3: a key the target does not have is an
// error (as with KnownFields), and so is a non-integer scalar (1.5,
// 1e3, 18446744073709551616, which yaml.v3 reads as floats) bound for an
// integer field, which yaml.v3 would truncate or wrap. Errors name the
// line and the key.
package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrEmpty is returned for a document with no content.
var ErrEmpty = errors.New("empty document")

// Decode decodes the first YAML document of data into v (a pointer).
func Decode(data []byte, v any) error {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return ErrEmpty
		}
		return err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strictyaml: decode into %T, want a non-nil pointer", v)
	}
	if err := check(&doc, rv.Type().Elem(), ""); err != nil {
		return err
	}
	dec = yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// check walks n beside the type t it will be decoded into.
func check(n *yaml.Node, t reflect.Type, key string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := check(c, t, key); err != nil {
				return err
			}
		}
		return nil
	case yaml.AliasNode:
		if n.Alias != nil {
			return check(n.Alias, t, key)
		}
		return nil
	case yaml.ScalarNode:
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if n.Tag == "!!null" {
				return nil
			}
			if n.ShortTag() != "!!int" {
				return fmt.Errorf("line %d: %s: %q is not an integer in range", n.Line, orValue(key), n.Value)
			}
			if err := n.Decode(reflect.New(t).Interface()); err != nil {
				return fmt.Errorf("line %d: %s: %q is not a %s", n.Line, orValue(key), n.Value, kindName(t))
			}
		}
		return nil
	case yaml.SequenceNode:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return nil // yaml.v3 reports the mismatch
		}
		for i, c := range n.Content {
			if err := check(c, t.Elem(), fmt.Sprintf("%s[%d]", key, i)); err != nil {
				return err
			}
		}
		return nil
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" {
				if err := check(val, t, key); err != nil {
					return err
				}
				continue
			}
			sub := join(key, k.Value)
			switch t.Kind() {
			case reflect.Map:
				if err := check(val, t.Elem(), sub); err != nil {
					return err
				}
			case reflect.Struct:
				if ft, ok := field(t, k.Value); ok {
					if err := check(val, ft, sub); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func kindName(t reflect.Type) string {
	if strings.HasPrefix(t.Kind().String(), "uint") {
		return "non-negative integer in range"
	}
	return "integer in range"
}

func orValue(key string) string {
	if key == "" {
		return "value"
	}
	return key
}

func join(key, k string) string {
	if key == "" {
		return k
	}
	return key + "." + k
}

// field returns the type of t's field that YAML key name decodes into,
// following yaml.v3's rules (tag name, else the lowercased field name;
// inline structs searched).
func field(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "-" {
			continue
		}
		tname, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if r, ok := field(ft, name); ok {
					return r, true
				}
			}
			continue
		}
		if tname == "" {
			tname = strings.ToLower(f.Name)
		}
		if tname == name {
			return f.Type, true
		}
	}
	return nil, false
}
