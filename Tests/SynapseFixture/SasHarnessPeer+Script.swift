extension SasHarnessPeer {
    /// The harness: the spec's SAS verification over plain HTTP, vodozemac for the key
    /// agreement, SAS bytes and MACs. Prints one JSON result.
    static let script = #"""
    import base64, hashlib, json, os, sys, time, urllib.parse, urllib.request, uuid
    import vodozemac

    request = json.loads(sys.stdin.read())
    base = request["homeserver"].rstrip("/") + "/_matrix/client/v3"
    token = None

    def call(method, path, body=None, timeout=40):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
        if token:
            req.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(req, timeout=timeout) as answer:
            return json.loads(answer.read())

    def canonical(value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def unpadded(data):
        return base64.b64encode(data).decode().rstrip("=")

    login = call("POST", "/login", {"type": "m.login.password", "identifier": {"type": "m.id.user", "user": request["user"]},
                                    "password": request["password"], "initial_device_display_name": "SAS harness"})
    token, me, device = login["access_token"], login["user_id"], login["device_id"]
    account = vodozemac.Account()
    ed25519 = account.ed25519_key.to_base64()
    device_keys = {"user_id": me, "device_id": device, "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
                   "keys": {"ed25519:" + device: ed25519, "curve25519:" + device: account.curve25519_key.to_base64()}}
    device_keys["signatures"] = {me: {"ed25519:" + device: account.sign(canonical(device_keys).encode()).to_base64()}}
    call("POST", "/keys/upload", {"device_keys": device_keys})
    with open(request["ready_file"] + ".part", "w") as f:
        json.dump({"device_id": device, "ed25519": ed25519}, f)
    os.rename(request["ready_file"] + ".part", request["ready_file"])

    partner, partner_device = request["partner_user"], request.get("partner_device")
    decision, role = request["decision"], request["role"]
    filter_id = urllib.parse.quote(json.dumps({"room": {"rooms": []}, "presence": {"types": []}, "account_data": {"types": []}}))
    since = None
    result = {"outcome": "gave_up"}
    txn = None
    sas = vodozemac.Sas()
    our_key = sas.public_key.to_base64()
    state = {"we_started": False, "start": None, "commitment": None, "established": None, "their_key": None, "sent_done": False}

    def send(kind, content):
        content = dict(content, transaction_id=txn)
        call("PUT", "/sendToDevice/%s/%s" % (kind, uuid.uuid4()), {"messages": {partner: {partner_device: content}}})

    def cancel(code):
        send("m.key.verification.cancel", {"code": code, "reason": "harness: " + code})
        result["sent_code"] = code
        result["outcome"] = "cancelled"

    def start():
        content = {"from_device": device, "method": "m.sas.v1", "key_agreement_protocols": ["curve25519-hkdf-sha256"],
                   "hashes": ["sha256"], "message_authentication_codes": ["hkdf-hmac-sha256.v2"],
                   "short_authentication_string": ["decimal", "emoji"]}
        send("m.key.verification.start", content)
        state["we_started"], state["start"] = True, dict(content, transaction_id=txn)

    def establish(their_key):
        established = sas.diffie_hellman(vodozemac.Curve25519PublicKey.from_base64(their_key))
        ours, theirs = (me, device, our_key), (partner, partner_device, their_key)
        starter, accepter = (ours, theirs) if state["we_started"] else (theirs, ours)
        info = "MATRIX_KEY_VERIFICATION_SAS|%s|%s|%s|%s|%s|%s|%s" % (starter + accepter + (txn,))
        shown = established.bytes(info)
        result["emoji"], result["decimals"] = list(shown.emoji_indices), list(shown.decimals)
        state["established"], state["their_key"] = established, their_key
        if decision == "mismatch":
            cancel("m.mismatched_sas")
        elif decision == "match":
            info = "MATRIX_KEY_VERIFICATION_MAC%s%s%s%s%s" % (me, device, partner, partner_device, txn)
            key_id = "ed25519:" + device
            send("m.key.verification.mac", {"mac": {key_id: established.calculate_mac(ed25519, info + key_id)},
                                            "keys": established.calculate_mac(key_id, info + "KEY_IDS")})

    def check_mac(content):
        answer = call("POST", "/keys/query", {"device_keys": {partner: []}})
        known = {"ed25519:" + partner_device: answer["device_keys"][partner][partner_device]["keys"]["ed25519:" + partner_device]}
        for key in (answer.get("master_keys", {}).get(partner, {}).get("keys") or {}).values():
            known["ed25519:" + key] = key
        info = "MATRIX_KEY_VERIFICATION_MAC%s%s%s%s%s" % (partner, partner_device, me, device, txn)
        established = state["established"]
        if established.calculate_mac(",".join(sorted(content["mac"])), info + "KEY_IDS") != content["keys"]:
            return False
        checked = [k for k in content["mac"] if k in known]
        result["checked_keys"] = sorted(checked)
        return bool(checked) and all(established.calculate_mac(known[k], info + k) == content["mac"][k] for k in checked)

    if role == "request":
        txn = "harness-" + uuid.uuid4().hex
        send("m.key.verification.request", {"from_device": device, "methods": ["m.sas.v1"], "timestamp": int(time.time() * 1000)})
    deadline = time.time() + request["seconds"]
    while time.time() < deadline and result["outcome"] == "gave_up":
        path = "/sync?timeout=500&filter=" + filter_id + ("&since=" + urllib.parse.quote(since) if since else "")
        answer = call("GET", path)
        since = answer["next_batch"]
        for event in answer.get("to_device", {}).get("events", []):
            kind, content = event.get("type", ""), event.get("content", {})
            if event.get("sender") != partner or not kind.startswith("m.key.verification."):
                continue
            if kind == "m.key.verification.request" and role == "answer" and txn is None:
                txn, partner_device = content["transaction_id"], content["from_device"]
                if decision != "ignore_request":
                    send("m.key.verification.ready", {"from_device": device, "methods": ["m.sas.v1"]})
                continue
            if content.get("transaction_id") != txn:
                continue
            if kind == "m.key.verification.cancel":
                result["outcome"], result["cancel_code"] = "cancelled", content.get("code")
            elif kind == "m.key.verification.ready":
                start()
            elif kind == "m.key.verification.start":
                state["start"] = content
                commitment = unpadded(hashlib.sha256((our_key + canonical(content)).encode()).digest())
                send("m.key.verification.accept", {"method": "m.sas.v1", "key_agreement_protocol": "curve25519-hkdf-sha256",
                                                   "hash": "sha256", "message_authentication_code": "hkdf-hmac-sha256.v2",
                                                   "short_authentication_string": ["decimal", "emoji"], "commitment": commitment})
            elif kind == "m.key.verification.accept":
                state["commitment"] = content["commitment"]
                send("m.key.verification.key", {"key": our_key})
            elif kind == "m.key.verification.key":
                if state["we_started"]:
                    expected = unpadded(hashlib.sha256((content["key"] + canonical(state["start"])).encode()).digest())
                    if expected != state["commitment"]:
                        cancel("m.mismatched_commitment")
                        break
                else:
                    send("m.key.verification.key", {"key": our_key})
                establish(content["key"])
            elif kind == "m.key.verification.mac":
                if check_mac(content):
                    result["verified"] = True
                    send("m.key.verification.done", {})
                    state["sent_done"] = True
                    if state.get("their_done"):
                        result["outcome"] = "done"
                else:
                    cancel("m.key_mismatch")
            elif kind == "m.key.verification.done":
                state["their_done"] = True
                if state["sent_done"]:
                    result["outcome"] = "done"
    print(json.dumps([result]))
    """#
}
