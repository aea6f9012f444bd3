package toolkit

import "testing"

// Only the associations GitHub gives people with push access are
// trusted; anything else, an unknown or missing one included, is a
// stranger's.
func TestTrustedAssociation(t *testing.T) {
	for a, want := range map[string]bool{
		"OWNER": true, "MEMBER": true, "COLLABORATOR": true, "member": true,
		"CONTRIBUTOR": false, "FIRST_TIMER": false, "FIRST_TIME_CONTRIBUTOR": false, "MANNEQUIN": false, "NONE": false,
		"": false, "OWNERS": false, " MEMBER": false,
	} {
		if got := TrustedAssociation(a); got != want {
			t.Errorf("TrustedAssociation(%q) = %v, want %v", a, got, want)
		}
	}
}
