// Stand-in for Apple's `Security` module (see README.md): the Keychain item API the SDK uses.
import Foundation

/// `OSStatus`.
public typealias OSStatus = Int32
/// `CFTypeRef`.
public typealias CFTypeRef = AnyObject
/// `CFString` (toll-free bridged with `NSString`).
public typealias CFString = NSString
/// `CFDictionary` (toll-free bridged with `NSDictionary`).
public typealias CFDictionary = NSDictionary

@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecClass: CFString = "class"
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecClassGenericPassword: CFString = "genp"
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecAttrService: CFString = "svce"
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecAttrAccount: CFString = "acct"
@available(iOS 3.0, tvOS 9.0, macOS 10.9, *) public let kSecAttrAccessGroup: CFString = "agrp"
@available(iOS 4.0, tvOS 9.0, macOS 10.9, *) public let kSecAttrAccessible: CFString = "pdmn"
@available(iOS 4.0, tvOS 9.0, macOS 10.9, *) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecValueData: CFString = "v_Data"
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecReturnData: CFString = "r_Data"
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecMatchLimit: CFString = "m_Limit"
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *) public let kSecMatchLimitOne: CFString = "m_LimitOne"

/// `errSecSuccess`.
public var errSecSuccess: OSStatus { 0 }
/// `errSecItemNotFound`.
public var errSecItemNotFound: OSStatus { -25300 }

/// `SecItemCopyMatching(_:_:)`.
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { fatalError("stand-in") }
/// `SecItemAdd(_:_:)`.
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { fatalError("stand-in") }
/// `SecItemUpdate(_:_:)`.
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { fatalError("stand-in") }
/// `SecItemDelete(_:)`.
@available(iOS 2.0, tvOS 9.0, macOS 10.6, *)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { fatalError("stand-in") }
