package score

import (
	"strings"
)

// A field's placeholder shows the shape of what it wants when its name says nothing ("f_1"):
// sixteen digits in groups of four are a card's number, "MM / YY" its expiry, "3 digits" its
// security code. A kit that names its fields f_0…f_3 still has to show its reader what to type.
var (
	cardShapeRE   = mustPattern(`^(?:[0-9x•*#·]{4}[ -]?){3}[0-9x•*#·]{1,7}$`)
	expiryShapeRE = mustPattern(`^(?:mm|月)\s*[/-]\s*(?:yy|yyyy|年)$`)
	cvvShapeRE    = mustPattern(`^(?:[0-9]|three|four)(?: or [0-9])? digits?(?: code)?$|^[0-9]位(?:数字|安全码)?$`)
)

// shapeAsks is what a field's hint (lower case) asks for by its shape alone.
func shapeAsks(hint string) asks {
	h := strings.TrimSpace(hint)
	switch {
	case cardShapeRE.MatchString(h):
		return askCard
	case expiryShapeRE.MatchString(h):
		return askExpiry
	case cvvShapeRE.MatchString(h):
		return askCVV
	}
	return 0
}
