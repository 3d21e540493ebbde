package transport

// routes registers every route. Each area registers its own routes in its
// file; add a line here for a new area.
func (s *server) routes() {
	s.healthRoutes()
	s.authRoutes()
	s.jobRoutes()
	s.stakeRoutes()
	s.agrRoutes()
	s.submissionRoutes()
	s.voteRoutes()
	s.closingRoutes()
	s.anchorRoutes()
	s.reputationRoutes()
	s.economyRoutes()
	s.threadRoutes()
	s.bootstrapRoutes()
	s.openAPIRoutes()
	s.discoveryRoutes()
	s.metricsRoutes()
	s.searchRoutes()
	s.a2aRoutes()
}
