package seed

// seedTeams gives acme two teams: the maintainers (alice and bob, who may
// write to its repositories) and support (carol, who reads them).
func (sd *seeder) seedTeams(w *world) {
	s := sd.s
	s.AddTeam(w.acme, "Maintainers", ptr("Reviews and merges changes to widgets and gadgets"), w.alice, w.bob)
	s.AddTeam(w.acme, "Support", ptr("Triages reports from customers"), w.carol)
}
