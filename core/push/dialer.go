package push

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// errBlockedAddress is returned by the dialer for an address a push
// service may not have: a member registers the endpoint, so without this
// check the server would POST wherever a member points it (the internal
// network, the database, the cloud metadata service).
var errBlockedAddress = errors.New("push: address not allowed for a push service")

// reservedPrefixes are the ranges no public push service answers from,
// beyond what netip classifies itself (loopback, private incl. ULA,
// link-local, multicast, unspecified).
var reservedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("192.88.99.0/24"),  // 6to4 relay anycast
	netip.MustParsePrefix("2002::/16"),       // 6to4 (embeds any IPv4)
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64 (embeds any IPv4)
	netip.MustParsePrefix("::ffff:0:0:0/96"), // SIIT translated
}

// PublicAddress reports whether ip may be dialled as a push service:
// not loopback, private (RFC 1918 and IPv6 ULA), link-local, multicast,
// unspecified or otherwise reserved. IPv4-mapped IPv6 is judged as IPv4.
func PublicAddress(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range reservedPrefixes {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// publicOnly is a net.Dialer Control hook: it runs after name resolution,
// on the very address about to be connected, so a host name that resolves
// (or re-resolves) to an internal address is refused too.
func publicOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", errBlockedAddress, address)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !PublicAddress(ip) {
		return fmt.Errorf("%w: %s", errBlockedAddress, address)
	}
	return nil
}

// newHTTPClient is the client push services are reached with: every
// connection goes through the address check (unless allowLocal, for a
// local push service in tests and benchmarks), no proxy from the
// environment (it would be dialled instead of the push service), and
// redirects are not followed: a push service answers, it never redirects,
// and following one would turn a POST into a GET to anywhere.
func newHTTPClient(allowLocal bool, idlePerHost int) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowLocal {
		d.Control = publicOnly
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = d.DialContext
	t.MaxIdleConnsPerHost = idlePerHost
	return &http.Client{
		Timeout:   30 * time.Second,
		Transport: t,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
