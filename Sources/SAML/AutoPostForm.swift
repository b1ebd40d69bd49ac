import EntitleCore
import Foundation

/// HTML page with a self-submitting form (HTTP-POST binding): values HTML-escaped, a `<noscript>` submit button
/// for browsers without JavaScript.
package func autoPostForm(action: String, fields: [(String, String)]) -> String {
    var html =
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Continue</title></head>"
        + "<body onload=\"document.forms[0].submit()\">"
        + "<form method=\"post\" action=\"\(XMLEscape.html(action))\">"
    for (name, value) in fields {
        html += "<input type=\"hidden\" name=\"\(XMLEscape.html(name))\" value=\"\(XMLEscape.html(value))\"/>"
    }
    html +=
        "<noscript><p>JavaScript is disabled. Press Continue to proceed.</p>"
        + "<input type=\"submit\" value=\"Continue\"/></noscript></form></body></html>\n"
    return html
}
