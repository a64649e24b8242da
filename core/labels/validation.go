package labels

import (
	"regexp"
	"strings"
)

var (
	qualifiedNameRE = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)
	dns1123Subdom   = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// IsQualifiedName reports whether s is a valid label key: an optional
// DNS-1123 subdomain prefix (at most 253 characters) and a slash, then a
// name of at most 63 alphanumerics, '-', '_' or '.', starting and ending
// alphanumeric; as apimachinery's validation.IsQualifiedName.
func IsQualifiedName(s string) bool {
	parts := strings.Split(s, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		if prefix == "" || len(prefix) > 253 || !dns1123Subdom.MatchString(prefix) {
			return false
		}
		name = parts[1]
	default:
		return false
	}
	return len(name) <= 63 && qualifiedNameRE.MatchString(name)
}
