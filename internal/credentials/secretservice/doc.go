// Package secretservice holds only a test: ghgate's credential store
// against a real Secret Service (gnome-keyring on a D-Bus session bus),
// in a package of its own because the credentials package's tests replace
// go-keyring's provider with its mock for the whole test binary. `make
// secret-service-test` runs it under dbus-run-session with an unlocked
// keyring and GHGATE_REQUIRE_SECRET_SERVICE=1, which turns a missing
// Secret Service from a skip into a failure.
package secretservice
