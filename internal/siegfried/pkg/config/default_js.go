package config

func defaultHome() string {
	return ""
}
