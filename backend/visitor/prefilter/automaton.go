package prefilter

// Automaton is an Aho-Corasick automaton over ASCII-lower-cased strings, compiled to a
// complete transition table: scanning costs one table load per byte of the user agent,
// whatever the number of strings.
type Automaton struct {
	// class maps a byte to its column; upper-case ASCII shares the column of its lower case,
	// and every byte that occurs in no string shares column 0, which leads back to the root.
	class [256]uint8
	width int
	// next[state*width+column] is the next state's offset (state*width), bit-inverted
	// (negative) when some string ends there, so that the scan tests one sign per byte.
	next  []int32
	final []bool    // final[state]: some string ends here (while building; nil after)
	out   [][]int32 // out[state]: indices of the strings that end here, suffixes included
}

// NewAutomaton compiles strings (already lower-cased); indices into strs name them in out.
func NewAutomaton(strs []string) *Automaton {
	a := &Automaton{width: 1}
	for _, s := range strs {
		for i := 0; i < len(s); i++ {
			if a.class[s[i]] == 0 {
				a.class[s[i]] = uint8(a.width)
				a.width++
				if a.width > 255 {
					panic("prefilter: too many distinct bytes in the literals")
				}
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		a.class[c] = a.class[c+'a'-'A']
	}

	// The trie, with -1 for a missing edge.
	a.addState()
	for idx, s := range strs {
		st := int32(0)
		for i := 0; i < len(s); i++ {
			col := int32(a.class[s[i]])
			nx := a.next[st*int32(a.width)+col]
			if nx < 0 {
				nx = a.addState()
				a.next[st*int32(a.width)+col] = nx
			}
			st = nx
		}
		a.final[st] = true
		a.out[st] = append(a.out[st], int32(idx))
	}

	// Failure links, breadth first, turned into transitions as they are found.
	fail := make([]int32, len(a.final))
	queue := make([]int32, 0, len(a.final))
	for col := 0; col < a.width; col++ {
		if nx := a.next[col]; nx > 0 {
			queue = append(queue, nx)
		} else {
			a.next[col] = 0
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		f := fail[st]
		for col := 0; col < a.width; col++ {
			i := int(st)*a.width + col
			nx := a.next[i]
			if nx < 0 {
				a.next[i] = a.next[int(f)*a.width+col]
				continue
			}
			fail[nx] = a.next[int(f)*a.width+col]
			if a.final[fail[nx]] {
				a.final[nx] = true
				a.out[nx] = append(a.out[nx], a.out[fail[nx]]...)
			}
			queue = append(queue, nx)
		}
	}
	for i, st := range a.next {
		a.next[i] = st * int32(a.width)
		if a.final[st] {
			a.next[i] = ^a.next[i]
		}
	}
	a.final = nil
	return a
}

func (a *Automaton) addState() int32 {
	st := int32(len(a.final))
	for range a.width {
		a.next = append(a.next, -1)
	}
	a.final = append(a.final, false)
	a.out = append(a.out, nil)
	return st
}

// Scan calls hit with the strings that end at each byte of s, in order, until hit returns
// true; it reports whether one did.
func (a *Automaton) Scan(s string, hit func(strs []int32) bool) bool {
	next, class := a.next, &a.class
	off := int32(0)
	for i := 0; i < len(s); i++ {
		off = next[off+int32(class[s[i]])]
		if off < 0 {
			off = ^off
			if hit(a.out[off/int32(a.width)]) {
				return true
			}
		}
	}
	return false
}
