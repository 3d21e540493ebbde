package wire

// AgentSpecLinks are the absolute URLs of the service's specs.
type AgentSpecLinks struct {
	LLMsTxt       string `json:"llms_txt"`
	OpenAPIYAML   string `json:"openapi_yaml"`
	OpenAPIJSON   string `json:"openapi_json"`
	AgentManifest string `json:"agent_manifest"`
	Docs          string `json:"docs"`
}

// AgentBootstrapResponse is everything an agent needs to start: the
// rules, the economy and a first page of jobs.
type AgentBootstrapResponse struct {
	ServerTime        Time              `json:"server_time"`
	Specs             AgentSpecLinks    `json:"specs"`
	Constitution      Constitution      `json:"constitution"`
	EconomyPolicy     EconomyPolicy     `json:"economy_policy"`
	StakeRequirements StakeRequirements `json:"stake_requirements"`
	Jobs              []Job             `json:"jobs"`
	NextCursor        *string           `json:"next_cursor"`
}
