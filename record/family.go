package record

import (
	"maps"
	"slices"
	"strings"
)

// familySep parts a family setting from the next in Setup.FamilySettings: no name or value a
// suite can write holds it.
const familySep = "\x1f"

// SetFamilySetting records a family's setting (Point.FamilySettings) on the point.
func (p *Point) SetFamilySetting(name, value string) {
	if p.FamilySettings == nil {
		p.FamilySettings = map[string]string{}
	}
	p.FamilySettings[name] = value
}

// familyKey writes a point's family settings as one string, names in order, so that a
// Setup stays comparable (a map key).
func familyKey(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, familySep)
}

// familyFields reads familyKey's string back, in its order.
func familyFields(key string) []Field {
	if key == "" {
		return nil
	}
	var out []Field
	for _, kv := range strings.Split(key, familySep) {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, Field{k, v})
	}
	return out
}

// familyWithout is key without the setting name.
func familyWithout(key, name string) string {
	m := map[string]string{}
	for _, f := range familyFields(key) {
		if f.Name != name {
			m[f.Name] = f.Value
		}
	}
	return familyKey(m)
}
