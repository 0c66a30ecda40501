import CalendarModel
import XCTest

/// Taking user information off URLs before they are kept or shown.
final class URLUserInfoTests: XCTestCase {
    func testUserAndPasswordAreTakenOffAndDecoded() {
        let given = URLUserInfo("https://ana%40home:p%3Ass@cal.example.com:8443/dav/ana/work/?x=1#y")
        XCTAssertEqual(given.url, "https://cal.example.com:8443/dav/ana/work/?x=1#y")
        XCTAssertEqual(given.user, "ana@home")
        XCTAssertEqual(given.password, "p:ss")
        XCTAssertEqual(given.credentials?.user, "ana@home")
        let userOnly = URLUserInfo("webcal://ana@example.com/cal.ics")
        XCTAssertEqual(userOnly.url, "webcal://example.com/cal.ics")
        XCTAssertEqual(userOnly.user, "ana")
        XCTAssertNil(userOnly.password)
        XCTAssertNil(userOnly.credentials)
        // The last @ of the authority ends the user information; an @ in the path is not in the authority.
        XCTAssertEqual(URLUserInfo("https://a@b:c@host/x").url, "https://host/x")
        XCTAssertEqual(URLUserInfo("https://host/users/ana@example.com/").url, "https://host/users/ana@example.com/")
        XCTAssertNil(URLUserInfo("https://host/users/ana@example.com/").user)
        // Names made of URLs (merge base sources) lose it too.
        XCTAssertEqual(URLUserInfo("feed:https://ana:s@host/c.ics").url, "feed:https://host/c.ics")
        XCTAssertEqual(URLUserInfo("/home/ana/cal.ics").url, "/home/ana/cal.ics")
    }

    func testRedactingHidesPasswordsOnlyInURLs() {
        XCTAssertEqual(
            URLUserInfo.redacting("ftp://ana:s3cret@example.com/a.ics is not a URL; see https://b:x@h/ too"),
            "ftp://ana:***@example.com/a.ics is not a URL; see https://b:***@h/ too")
        XCTAssertEqual(URLUserInfo.redacting("https://ana@example.com/"), "https://ana@example.com/")
        XCTAssertEqual(URLUserInfo.redacting("time 10:30 at ana@example.com"), "time 10:30 at ana@example.com")
    }
}
