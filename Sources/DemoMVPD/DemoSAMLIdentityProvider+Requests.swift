import EntitleCore
import Foundation
import Hummingbird
import SAML

/// A request the IdP refuses, with the page it shows.
struct DemoRequestError: Error, Sendable {
    /// HTTP status of the error page.
    var status: HTTPResponse.Status
    /// Page heading.
    var heading: String
    /// Clear explanation for the user (and the integrator).
    var message: String
    /// The request's signature did not verify with the SP's certificates.
    var badSignature = false
}

/// An AuthnRequest that passed every check, with the raw binding values it came in.
struct AcceptedAuthnRequest: Sendable {
    /// The decoded request.
    var request: AuthnRequest
    /// The trusted SP that sent it.
    var serviceProvider: TrustedServiceProvider
    /// The `SAMLRequest` binding value exactly as received.
    var samlRequest: String
    /// The `RelayState`, if any.
    var relayState: String?
    /// Whether it came by the HTTP-POST binding (Base64 XML with an enveloped signature) rather than HTTP-Redirect.
    var viaPOST = false

    /// The value the login page carries in its `SAMLRequest` field: the redirect binding's value as received, or
    /// the POST binding's with the prefix ``postMarker`` (Base64 has no `:`), so the login form knows how to read it.
    var loginFormValue: String { viaPOST ? Self.postMarker + samlRequest : samlRequest }

    /// Marks a login form's `SAMLRequest` that came by the HTTP-POST binding.
    static let postMarker = "post:"
}

extension DemoSAMLIdentityProvider {
    /// Checks an AuthnRequest from the HTTP-Redirect binding (or, with `viaPOST`, the HTTP-POST binding's form
    /// fields): decodable, issued by a trusted SP, signed when that SP has certificates (`checkSignature`; over the
    /// exact bytes of `rawQuery` when given; by the enveloped XML signature for POST), addressed to this IdP, ACS URL
    /// equal to the SP's, recent (`checkFreshness`).
    func acceptAuthnRequest(
        query: [String: String], rawQuery: String? = nil, viaPOST: Bool = false, provider: DemoProvider,
        checkSignature: Bool, checkFreshness: Bool, now: Date
    ) throws(DemoRequestError) -> AcceptedAuthnRequest {
        guard let samlRequest = query["SAMLRequest"], !samlRequest.isEmpty else {
            throw DemoRequestError(
                status: .badRequest, heading: "Missing sign-in request",
                message: "This page needs a SAML AuthnRequest (the SAMLRequest parameter).")
        }
        let request: AuthnRequest
        do {
            request =
                viaPOST
                ? try AuthnRequest.fromPOST(samlRequest: samlRequest, verifyWith: [])
                : try AuthnRequest.fromRedirect(query: query, verifyWith: [])
        } catch {
            throw unreadable("sign-in", error)
        }
        guard let serviceProvider = state.serviceProvider(entityID: request.issuer) else {
            state.logger.notice(
                "demo MVPD refused AuthnRequest from untrusted SP",
                metadata: ["mvpd": "\(provider.id)", "issuer": "\(request.issuer.logEscaped)"])
            throw DemoRequestError(
                status: .badRequest, heading: "Unknown service",
                message: "The service \"\(request.issuer)\" is not allowed to sign in with \(provider.displayName).")
        }
        if checkSignature, !serviceProvider.certificates.isEmpty {
            do {
                if viaPOST {
                    _ = try AuthnRequest.fromPOST(samlRequest: samlRequest, verifyWith: serviceProvider.certificates)
                } else if let rawQuery {
                    _ = try AuthnRequest.fromRedirect(rawQuery: rawQuery, verifyWith: serviceProvider.certificates)
                } else {
                    _ = try AuthnRequest.fromRedirect(query: query, verifyWith: serviceProvider.certificates)
                }
            } catch {
                throw DemoRequestError(
                    status: .badRequest, heading: "Untrusted sign-in request",
                    message: "The sign-in request is not correctly signed by \"\(request.issuer)\" (\(describe(error))).", badSignature: true)
            }
        }
        let acs = request.assertionConsumerServiceURL
        guard acs.isEmpty || acs == serviceProvider.assertionConsumerServiceURL else {
            state.logger.notice(
                "demo MVPD refused AuthnRequest with unregistered ACS URL",
                metadata: ["mvpd": "\(provider.id)", "issuer": "\(request.issuer.logEscaped)", "acs": "\(acs.logEscaped)"])
            throw DemoRequestError(
                status: .badRequest, heading: "Unregistered return address",
                message: "The sign-in request asks to return to \"\(acs)\", which is not the registered address of \"\(request.issuer)\".")
        }
        let ssoURL = provider.singleSignOnURL(baseURL: state.configuration.baseURL)
        guard request.destination.isEmpty || request.destination == ssoURL else {
            throw DemoRequestError(
                status: .badRequest, heading: "Wrong destination",
                message: "The sign-in request is addressed to \"\(request.destination)\", not to \(provider.displayName) (\(ssoURL)).")
        }
        // A proxied MVPD is signed in only when the request's Scoping names it (Adobe's proxy SAML integration).
        if provider.isProxy || (provider.proxiedBy != nil && request.scoping?.providerID != provider.entityID(baseURL: state.configuration.baseURL)) {
            throw DemoRequestError(
                status: .badRequest, heading: "No TV provider chosen",
                message: "The sign-in request does not name the TV provider to sign in with (samlp:Scoping).")
        }
        if checkFreshness, abs(request.issueInstant.timeIntervalSince(now)) > state.configuration.requestMaxAge {
            throw DemoRequestError(
                status: .badRequest, heading: "Sign-in request expired",
                message: "The sign-in request is too old (or its clock is wrong). Go back and start again.")
        }
        return AcceptedAuthnRequest(
            request: request, serviceProvider: serviceProvider, samlRequest: samlRequest,
            relayState: query["RelayState"].flatMap { $0.isEmpty ? nil : $0 }, viaPOST: viaPOST)
    }

    /// Checks a LogoutRequest from the HTTP-Redirect binding: trusted SP with a Single Logout URL, signed when the
    /// SP has certificates, addressed to this IdP, recent.
    func acceptLogoutRequest(query: [String: String], rawQuery: String?, provider: DemoProvider, now: Date)
        throws(DemoRequestError) -> (LogoutRequest, TrustedServiceProvider, String)
    {
        guard let samlRequest = query["SAMLRequest"], !samlRequest.isEmpty else {
            throw DemoRequestError(
                status: .badRequest, heading: "Missing sign-out request",
                message: "This page needs a SAML LogoutRequest (the SAMLRequest parameter).")
        }
        let request: LogoutRequest
        do {
            request = try LogoutRequest.fromRedirect(query: query, verifyWith: [])
        } catch {
            throw unreadable("sign-out", error)
        }
        guard let serviceProvider = state.serviceProvider(entityID: request.issuer) else {
            throw DemoRequestError(
                status: .badRequest, heading: "Unknown service",
                message: "The service \"\(request.issuer)\" is not allowed to sign out of \(provider.displayName).")
        }
        guard let singleLogoutURL = serviceProvider.singleLogoutURL else {
            throw DemoRequestError(
                status: .badRequest, heading: "Single Logout not configured",
                message: "\(provider.displayName) has no Single Logout address for \"\(request.issuer)\".")
        }
        if !serviceProvider.certificates.isEmpty {
            do {
                if let rawQuery {
                    _ = try LogoutRequest.fromRedirect(rawQuery: rawQuery, verifyWith: serviceProvider.certificates)
                } else {
                    _ = try LogoutRequest.fromRedirect(query: query, verifyWith: serviceProvider.certificates)
                }
            } catch {
                throw DemoRequestError(
                    status: .badRequest, heading: "Untrusted sign-out request",
                    message: "The sign-out request is not correctly signed by \"\(request.issuer)\" (\(describe(error))).", badSignature: true)
            }
        }
        let sloURL = provider.singleLogoutURL(baseURL: state.configuration.baseURL) ?? ""
        guard request.destination.isEmpty || request.destination == sloURL else {
            throw DemoRequestError(
                status: .badRequest, heading: "Wrong destination",
                message: "The sign-out request is addressed to \"\(request.destination)\", not to \(provider.displayName) (\(sloURL)).")
        }
        if abs(request.issueInstant.timeIntervalSince(now)) > state.configuration.requestMaxAge {
            throw DemoRequestError(
                status: .badRequest, heading: "Sign-out request expired",
                message: "The sign-out request is too old (or its clock is wrong).")
        }
        return (request, serviceProvider, singleLogoutURL)
    }

    private func unreadable(_ kind: String, _ error: any Error) -> DemoRequestError {
        DemoRequestError(
            status: .badRequest, heading: "Unreadable \(kind) request",
            message: "The \(kind) request could not be read (\(describe(error))).")
    }

    private func describe(_ error: any Error) -> String {
        (error as? SAMLError)?.message ?? "invalid request"
    }
}
