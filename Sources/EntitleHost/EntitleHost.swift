// EntitleHost
