package link

import (
	"strings"

	"github.com/shortlink/shortlink/backend/apperr"
)

// MaxAliasLength bounds a custom alias.
const MaxAliasLength = 64

// reservedWords are paths the service itself answers or may answer one day.
var reservedWords = map[string]bool{
	"api": true, "admin": true, "login": true, "logout": true, "signup": true, "register": true,
	"static": true, "assets": true, "healthz": true, "readyz": true, "metrics": true, "app": true,
	"dashboard": true, "auth": true, "settings": true, "docs": true, "help": true, "about": true,
	"terms": true, "privacy": true, "robots": true, "favicon": true, "www": true, "s": true,
	"moderation": true, "operator": true, "well-known": true, "_": true, "scim": true,
}

// KeyShaped reports whether s could be a key at all (alias or code): 1–64 of [A-Za-z0-9_-].
// The redirect path uses it to answer 404 for anything else without a lookup.
func KeyShaped(s string) bool {
	if len(s) == 0 || len(s) > MaxAliasLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// ValidateAlias checks a custom alias's characters, length and reserved words.
func ValidateAlias(s string) error {
	if !KeyShaped(s) {
		return apperr.Errorf(apperr.Invalid, "alias must be 1 to %d characters of A-Z, a-z, 0-9, _ and -", MaxAliasLength).For("alias_invalid", "alias")
	}
	if reservedWords[strings.ToLower(s)] {
		return apperr.Errorf(apperr.Invalid, "alias %q is reserved", s).For("alias_reserved", "alias")
	}
	return nil
}
