package link

import "encoding/json"

// Opt is a field of a partial update: Set tells a present field (possibly null) from an absent one.
type Opt[T any] struct {
	Set   bool
	Value T
}

// Some returns a set Opt.
func Some[T any](v T) Opt[T] { return Opt[T]{Set: true, Value: v} }

// UnmarshalJSON marks the field as present; null leaves the zero value.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(b) == "null" {
		var zero T
		o.Value = zero
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// MarshalJSON writes the value, or null when unset.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Set {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}
