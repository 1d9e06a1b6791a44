import ThreadModel

/// The steps of a verification: the messages it is fed and our person's answers.
extension SasVerification {
    /// Feeds one message from `sender` (and `senderDevice`, when the transport or the message
    /// says which) that belongs to this verification; returns what to send (a cancel when it was
    /// unexpected or wrong). Messages after the end are ignored.
    ///
    /// Only the two parties count: a message from another user (any member of the room can
    /// relate to the request), or from another device of theirs once one answered (a late
    /// decline of a fanned-out request), is dropped, never a reason to cancel, else any of them
    /// could end ours.
    public mutating func receive(_ message: VerificationMessage, from sender: String, device senderDevice: String? = nil,
                                 nowMilliseconds: Int64) -> [Outgoing] {
        guard !isFinished, sender == theirUserID else { return [] }
        if let theirDeviceID, let device = senderDevice ?? message.fromDevice, device != theirDeviceID { return [] }
        if let deadline, nowMilliseconds >= deadline { return cancelling(.timeout) }
        if case .cancel(let code, let reason) = message {
            phase = .cancelled(Cancellation(code: code, reason: reason, byUs: false))
            return []
        }
        switch (phase, message) {
        case (.requested, .ready(let device, let methods)):
            if let theirDeviceID, device != theirDeviceID { return [] }
            guard methods.contains(VerificationMessage.sasMethod) else { return cancelling(.unknownMethod) }
            theirDeviceID = device
            phase = .ready
            return sendStart()
        case (.ready, .start(let start)), (.started, .start(let start)):
            guard start.fromDevice == theirDeviceID else { return [] }
            // Both started: the start of the smaller user (or, for one user, device) id wins.
            if phase == .started, (ourUserID, ourDeviceID) < (theirUserID, start.fromDevice) { return [] }
            weStarted = false
            startContent = start.content
            return sendAccept(start)
        case (.started, .accept(let accept)):
            guard accept.keyAgreementProtocol == VerificationMessage.keyAgreement, accept.hash == VerificationMessage.hash,
                  accept.messageAuthenticationCode == VerificationMessage.macMethod else { return cancelling(.unknownMethod) }
            let forms = VerificationMessage.sasForms.filter(accept.shortAuthenticationStrings.contains)
            guard !forms.isEmpty else { return cancelling(.unknownMethod) }
            agreedForms = forms
            commitment = accept.commitment
            phase = .keySent
            return [outgoing("m.key.verification.key", ["key": .string(ourPublicKey)])]
        case (.keySent, .key(let key, let text)):
            guard let commitment, let startContent,
                  let expected = try? SasInfo.commitment(publicKey: text, startContent: startContent),
                  ConstantTime.equal(Array(expected.utf8), Array(commitment.utf8)) else { return cancelling(.mismatchedCommitment) }
            return establish(theirKey: key, text: text, reply: [])
        case (.accepted, .key(let key, let text)):
            return establish(theirKey: key, text: text, reply: [outgoing("m.key.verification.key", ["key": .string(ourPublicKey)])])
        case (.comparing, .mac(let keys, let macs)):
            pendingMac = (keys, macs)
            return []
        case (.confirmed, .mac(let keys, let macs)):
            return checkMac(keys: keys, macs: macs)
        case (.waitingForDone, .done):
            phase = .done
            return []
        case (.confirmed, .done), (.comparing, .done):
            // Their done can only follow our MAC; kept in case the transport reordered.
            theirDone = true
            return []
        default:
            return cancelling(.unexpectedMessage)
        }
    }

    /// Our person accepts an incoming request (we send ready) or a start without one (we accept it).
    public mutating func accept() -> [Outgoing] {
        switch phase {
        case .incomingRequest:
            phase = .ready
            return [outgoing("m.key.verification.ready", ["from_device": .string(ourDeviceID),
                                                          "methods": [.string(VerificationMessage.sasMethod)]])]
        case .incomingStart:
            guard let startContent, case .start(let start)? = try? VerificationMessage(type: "m.key.verification.start", content: startContent)
            else { return cancelling(.invalidMessage) }
            return sendAccept(start)
        default:
            return []
        }
    }

    /// Sends the start from the ready phase (the requester does at once; the other side may too).
    public mutating func start() -> [Outgoing] {
        guard phase == .ready else { return [] }
        return sendStart()
    }

    /// Our person says the emoji (or numbers) match: we send our MAC, and done when theirs came and checked.
    public mutating func confirm() -> [Outgoing] {
        guard phase == .comparing, let established, let theirDeviceID else { return [] }
        var macs: [String: JSONValue] = [:]
        for (keyID, key) in ourKeys {
            let info = SasInfo.mac(senderUser: ourUserID, senderDevice: ourDeviceID, receiverUser: theirUserID,
                                   receiverDevice: theirDeviceID, transactionID: transport.flowID, keyID: keyID)
            guard let mac = try? established.mac(of: key, info: info) else { return cancelling(.invalidMessage) }
            macs[keyID] = .string(mac)
        }
        let info = SasInfo.mac(senderUser: ourUserID, senderDevice: ourDeviceID, receiverUser: theirUserID,
                               receiverDevice: theirDeviceID, transactionID: transport.flowID, keyID: SasInfo.keyIDsName)
        guard let keysMac = try? established.mac(of: ourKeys.keys.sorted().joined(separator: ","), info: info) else {
            return cancelling(.invalidMessage)
        }
        phase = .confirmed
        let sent = outgoing("m.key.verification.mac", ["mac": .object(macs), "keys": .string(keysMac)])
        guard let pending = pendingMac else { return [sent] }
        pendingMac = nil
        return [sent] + checkMac(keys: pending.keys, macs: pending.macs)
    }

    private mutating func sendStart() -> [Outgoing] {
        let start = outgoing("m.key.verification.start", [
            "from_device": .string(ourDeviceID), "method": .string(VerificationMessage.sasMethod),
            "key_agreement_protocols": [.string(VerificationMessage.keyAgreement)], "hashes": [.string(VerificationMessage.hash)],
            "message_authentication_codes": [.string(VerificationMessage.macMethod)],
            "short_authentication_string": .array(VerificationMessage.sasForms.map(JSONValue.string)),
        ])
        weStarted = true
        startContent = start.content
        phase = .started
        return [start]
    }

    private mutating func sendAccept(_ start: VerificationMessage.SasStart) -> [Outgoing] {
        guard start.method == VerificationMessage.sasMethod, start.keyAgreementProtocols.contains(VerificationMessage.keyAgreement),
              start.hashes.contains(VerificationMessage.hash),
              start.messageAuthenticationCodes.contains(VerificationMessage.macMethod) else { return cancelling(.unknownMethod) }
        let forms = VerificationMessage.sasForms.filter(start.shortAuthenticationStrings.contains)
        guard !forms.isEmpty else { return cancelling(.unknownMethod) }
        guard let commitment = try? SasInfo.commitment(publicKey: ourPublicKey, startContent: start.content) else {
            return cancelling(.invalidMessage)
        }
        agreedForms = forms
        phase = .accepted
        return [outgoing("m.key.verification.accept", [
            "method": .string(VerificationMessage.sasMethod), "key_agreement_protocol": .string(VerificationMessage.keyAgreement),
            "hash": .string(VerificationMessage.hash), "message_authentication_code": .string(VerificationMessage.macMethod),
            "short_authentication_string": .array(forms.map(JSONValue.string)), "commitment": .string(commitment),
        ])]
    }

    /// Both keys known: the shared secret and the string to compare.
    private mutating func establish(theirKey: [UInt8], text: String, reply: [Outgoing]) -> [Outgoing] {
        guard let theirDeviceID, let secret = try? EstablishedSas(ours: ephemeral, theirPublicKey: theirKey) else {
            return cancelling(.invalidMessage)
        }
        let ours = SasInfo.Side(userID: ourUserID, deviceID: ourDeviceID, publicKey: ourPublicKey)
        let theirs = SasInfo.Side(userID: theirUserID, deviceID: theirDeviceID, publicKey: text)
        let info = weStarted ? SasInfo.sas(starter: ours, accepter: theirs, transactionID: transport.flowID)
                             : SasInfo.sas(starter: theirs, accepter: ours, transactionID: transport.flowID)
        guard let bytes = try? secret.bytes(info: info, count: 6), let sas = try? ShortAuthenticationString(bytes: bytes) else {
            return cancelling(.invalidMessage)
        }
        established = secret
        self.theirKey = text
        shortAuthenticationString = sas
        phase = .comparing
        return reply
    }

    /// Checks their MAC: the key id list, then each key we know of theirs (at least one, their
    /// device's or master key, must be there); every comparison in constant time.
    private mutating func checkMac(keys: String, macs: [String: String]) -> [Outgoing] {
        guard let established, let theirDeviceID else { return cancelling(.unexpectedMessage) }
        func info(_ keyID: String) -> String {
            SasInfo.mac(senderUser: theirUserID, senderDevice: theirDeviceID, receiverUser: ourUserID, receiverDevice: ourDeviceID,
                        transactionID: transport.flowID, keyID: keyID)
        }
        guard established.macMatches(keys, of: macs.keys.sorted().joined(separator: ","), info: info(SasInfo.keyIDsName)) else {
            return cancelling(.keyMismatch)
        }
        var expected: [String: String] = [:]
        if let device = theirDevices[theirDeviceID] { expected["ed25519:\(theirDeviceID)"] = device }
        if let theirMasterKey { expected["ed25519:\(theirMasterKey)"] = theirMasterKey }
        var verified: [String: String] = [:]
        for (keyID, mac) in macs {
            guard let key = expected[keyID] else { continue }
            guard established.macMatches(mac, of: key, info: info(keyID)) else { return cancelling(.keyMismatch) }
            verified[keyID] = key
        }
        guard !verified.isEmpty else { return cancelling(.keyMismatch) }
        verifiedKeys = verified
        phase = theirDone ? .done : .waitingForDone
        return [outgoing("m.key.verification.done", [:])]
    }

    /// Another device of ours answered their request (we saw our own ready or cancel in the
    /// room): it ends here, nothing sent, as the spec's other devices do.
    public mutating func answeredElsewhere() {
        guard phase == .incomingRequest || phase == .incomingStart else { return }
        phase = .cancelled(Cancellation(code: .accepted, reason: VerificationCancelCode.accepted.words, byUs: false))
    }

    /// A device of theirs learnt late (a device newer than the request answered it): its
    /// Ed25519 key, so its MAC can be checked. Only before a device answered: the key of the one
    /// we verify never changes under us.
    public mutating func learnDevices(_ devices: [String: String]) {
        guard theirDeviceID == nil else { return }
        theirDevices.merge(devices) { known, _ in known }
    }

    /// Whether their device `deviceID`'s key is known here (its MAC can be checked).
    public func knowsDevice(_ deviceID: String) -> Bool { theirDevices[deviceID] != nil }
}
