import Foundation

/// matrix-nio's key export files (`nio/crypto/key_export.py`, Element's format) as an oracle
/// for ours: nio's own code encrypts, decrypts and imports them. No homeserver; one Python
/// process per call.
public enum NioKeyExport {
    /// The plaintext of the file `text`, decrypted by nio's `decrypt_and_read`.
    public static func decrypt(_ text: String, passphrase: String) throws -> Data {
        let result = try run(["do": "decrypt", "text": text, "passphrase": passphrase])
        guard let encoded = result["plaintext"] as? String, let data = Data(base64Encoded: encoded) else {
            throw SynapseFixtureError("nio's key export decrypt answered \(result)")
        }
        return data
    }

    /// `plaintext` as a key file written by nio's `encrypt_and_save` with `rounds` rounds.
    public static func encrypt(_ plaintext: Data, passphrase: String, rounds: Int) throws -> String {
        let result = try run(["do": "encrypt", "data": plaintext.base64EncodedString(), "passphrase": passphrase, "rounds": rounds])
        guard let text = result["text"] as? String else { throw SynapseFixtureError("nio's key export encrypt answered \(result)") }
        return text
    }

    /// The sessions nio's `Olm.import_keys_static` takes from the file `text` (vodozemac reading
    /// each key): room id, session id, sender key and first known index of each.
    public static func importedSessions(_ text: String, passphrase: String) throws -> [[String: Any]] {
        let result = try run(["do": "import", "text": text, "passphrase": passphrase])
        guard let sessions = result["sessions"] as? [[String: Any]] else {
            throw SynapseFixtureError("nio's key import answered \(result)")
        }
        return sessions
    }

    private static func run(_ request: [String: Any]) throws -> [String: Any] {
        let python = try PythonVenv.nio.provision()
        let results = try PythonPeerRun(name: "matrix-nio key export", python: python, script: script).results(for: request)
        guard let first = results.first else { throw SynapseFixtureError("matrix-nio key export printed nothing") }
        return first
    }

    private static let script = #"""
import base64, json, os, sys, tempfile
from nio.crypto import key_export
from nio.crypto.olm_machine import Olm

request = json.load(sys.stdin)
folder = tempfile.mkdtemp()
path = os.path.join(folder, "keys.txt")
try:
    action = request["do"]
    if action == "decrypt":
        with open(path, "w") as f:
            f.write(request["text"])
        data = key_export.decrypt_and_read(path, request["passphrase"])
        result = {"plaintext": base64.b64encode(data).decode()}
    elif action == "encrypt":
        key_export.encrypt_and_save(base64.b64decode(request["data"]), path, request["passphrase"], count=request["rounds"])
        with open(path) as f:
            result = {"text": f.read()}
    elif action == "import":
        with open(path, "w") as f:
            f.write(request["text"])
        sessions = Olm.import_keys_static(path, request["passphrase"])
        result = {"sessions": [{"room_id": s.room_id, "session_id": s.id, "sender_key": s.sender_key,
                                "ed25519": s.ed25519, "first_known_index": s.first_known_index} for s in sessions]}
    else:
        result = {"error": "unknown action " + action}
except Exception as error:
    result = {"error": "%s: %s" % (type(error).__name__, error)}
print(json.dumps([result]))
"""#
}
