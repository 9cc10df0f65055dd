package render

import (
	"net/url"
	"strings"

	"github.com/chromedp/chromedp"
)

// quietFeatures are the browser features turned off (--disable-features)
// because they make requests of their own: translation, optimisation
// hints, media routing (cast discovery), network time, autofill and
// password-leak servers, safe-browsing lookups, push messaging, DNS over
// HTTPS, interest-group and privacy-sandbox fetches, the accounts and
// sign-in services, and automatic upgrades of http navigations to https
// (a request to another origin of the blog's host).
const quietFeatures = "Translate,OptimizationHints,OptimizationGuideModelDownloading,OptimizationHintsFetching," +
	"MediaRouter,DialMediaRouteProvider,CastMediaRouteProvider,NetworkTimeServiceQuerying," +
	"AutofillServerCommunication,PasswordLeakDetection,SafeBrowsingEnhancedProtection," +
	"SafeBrowsingRealTimeUrlLookup,PushMessaging,DnsOverHttps,InterestFeedContentSuggestions," +
	"PrivacySandboxSettings4,InterestGroupStorage,FedCm,AccountConsistency,SignInProfileCreation," +
	"CertificateTransparencyComponentUpdater,HttpsUpgrades,PreconnectToSearch,SearchEnginePreconnect2,SearchPrefetchServicePrefetching"

// quietFlags stop the browser's own background traffic, so that the only
// requests it makes are the pages' own: component and variations updates,
// sign-in and sync, metrics and crash reports, safe browsing, default apps
// and extensions, domain reliability, hyperlink-auditing pings, GCM, and
// WebRTC traffic that would not go through the proxy.
//
// Every service URL the switches can name is pointed at a name under
// .invalid (RFC 6761), and proxyFlags sends those names to the resolver
// rule "MAP *.invalid ~NOTFOUND" instead of the proxy: a service the
// switches cannot turn off (Chromium 156's on-demand component installs
// ignore --disable-component-update) then fails inside the browser, with no
// DNS query, no proxy request and no packet.
func quietFlags() []chromedp.ExecAllocatorOption {
	var opts []chromedp.ExecAllocatorOption
	for _, f := range []string{
		"disable-background-networking", // variations, GCM, network prediction, safe-browsing updates…
		"disable-component-update",
		"disable-component-extensions-with-background-pages",
		"disable-sync",
		"disable-default-apps",
		"disable-extensions",
		"disable-breakpad",
		"disable-crash-reporter",
		"disable-client-side-phishing-detection",
		"disable-domain-reliability",
		"disable-field-trial-config",
		"disable-quic",
		"no-pings",
		"metrics-recording-only",
		"safebrowsing-disable-auto-update",
		"no-service-autorun",
		"disable-notifications",
		"deny-permission-prompts",
	} {
		opts = append(opts, chromedp.Flag(f, true))
	}
	return append(opts,
		chromedp.Flag("variations-server-url", "http://variations.invalid/"),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("google-base-url", "http://google.invalid/"),
		chromedp.Flag("gaia-url", "http://gaia.invalid/"),
		chromedp.Flag("lso-url", "http://lso.invalid/"),
		chromedp.Flag("sync-url", "http://sync.invalid/"),
		chromedp.Flag("gcm-checkin-url", "http://gcm.invalid/checkin"),
		chromedp.Flag("gcm-registration-url", "http://gcm.invalid/register"),
		chromedp.Flag("gcm-mcs-endpoint", "https://gcm.invalid:5228"),
		chromedp.Flag("component-updater", "url-source="+invalidUpdateURL),
		chromedp.Flag("apps-gallery-update-url", invalidUpdateURL),
		chromedp.Flag("apps-gallery-url", "http://webstore.invalid/"),
	)
}

// invalidUpdateURL is where the component and extension updaters are sent:
// a name that never resolves.
const invalidUpdateURL = "http://update.invalid/service/update2/json"

// invalidHosts is the proxy-bypass and resolver pattern of the names the
// quiet switches point the browser's own services at.
const invalidHosts = "*.invalid"

// proxyHost returns the host of a proxy given as a URL or host:port, for
// the resolver rule that leaves it alone.
func proxyHost(proxy string) string {
	if !strings.Contains(proxy, "://") {
		proxy = "http://" + proxy
	}
	u, err := url.Parse(proxy)
	if err != nil {
		return proxy
	}
	return u.Hostname()
}
