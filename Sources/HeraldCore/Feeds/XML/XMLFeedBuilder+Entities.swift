import CLibXML2
import Foundation

/// Entities: what the document declares (external ones emptied), and HTML names feeds use
/// without declaring them.
extension XMLFeedBuilder {
    /// An internal entity the document declares. External entities are recorded with empty
    /// replacement text, so they are never fetched and expand to nothing.
    func declareEntity(name: UnsafePointer<xmlChar>?, type: Int32, content: UnsafeMutablePointer<xmlChar>?) {
        guard let name else { return }
        let internalKind = XML_INTERNAL_GENERAL_ENTITY.rawValue
        let external: Set<UInt32> = [
            XML_EXTERNAL_GENERAL_PARSED_ENTITY.rawValue, XML_EXTERNAL_GENERAL_UNPARSED_ENTITY.rawValue,
        ]
        let kind = UInt32(bitPattern: type)
        guard kind == internalKind || external.contains(kind) else { return }  // parameter entities: not kept
        let doc = entityTable()
        if kind == internalKind, let content {
            xmlAddDocEntity(doc, name, Int32(internalKind), nil, nil, content)
        } else {
            xmlAddDocEntity(doc, name, Int32(internalKind), nil, nil, "")
        }
    }

    /// A declared entity, else an HTML entity name (`&nbsp;`, `&eacute;`…) feeds use without
    /// declaring it; nil when unknown.
    func entity(_ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
        guard let name else { return nil }
        let doc = entityTable()
        if let found = xmlGetDocEntity(doc, name) { return found }
        let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        let nameBytes = Array(UnsafeBufferPointer(start: name, count: length))
        guard let value = XMLFeedText.namedEntity(nameBytes), let scalar = Unicode.Scalar(value) else {
            return nil
        }
        let replacement = "&#\(scalar.value);"
        return xmlAddDocEntity(doc, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, replacement)
    }

    func entityTable() -> xmlDocPtr {
        if let entityDoc { return entityDoc }
        let doc = xmlNewDoc("1.0")!
        xmlCreateIntSubset(doc, "entities", nil, nil)
        entityDoc = doc
        return doc
    }
}
