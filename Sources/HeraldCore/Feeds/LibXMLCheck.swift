import CLibXML2

/// The libxml2 version Herald runs on (a check that the module links).
public enum LibXML {
    public static var version: String {
        LIBXML_DOTTED_VERSION
    }
}
