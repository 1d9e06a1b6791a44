extension MautrixPeer {
    /// The peer's program: reads the request on stdin, prints one result per step. Its crypto
    /// store is in memory: each run is a new device, as a new Element session is.
    static let script = #"""
    import asyncio, json, logging, os, sys, time, traceback
    from mautrix.client import Client
    from mautrix.client.state_store import MemoryStateStore
    from mautrix.crypto import OlmMachine
    from mautrix.crypto.store import MemoryCryptoStore
    from mautrix.types import TOFUSigningKey, TrustState

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)

    class PeerCryptoStore(MemoryCryptoStore):
        """The memory store with an update of a known cross-signing key that works (0.21.1's
        assigns to a field of its immutable tuple)."""
        async def put_cross_signing_key(self, user_id, usage, key):
            known = self._cross_signing_keys.setdefault(user_id, {})
            known[usage] = known[usage]._replace(key=key) if usage in known else TOFUSigningKey(key=key, first=key)

    class PeerStateStore(MemoryStateStore):
        """The memory store with what the crypto machine also asks: encrypted rooms shared with a user."""
        async def find_shared_rooms(self, user_id):
            return [room for room, members in self.members.items()
                    if user_id in members and room in self.encryption]

    async def device_trust(machine, user, device_id):
        machine._cs_fetch_attempted.discard(user)
        await machine._fetch_keys([user], include_untracked=True)
        device = await machine.crypto_store.get_device(user, device_id)
        if device is None:
            return "unknown-device"
        return str(await machine.resolve_trust(device))

    async def main():
        request = json.loads(sys.stdin.read())
        state = PeerStateStore()
        client = Client(mxid=request["user"], base_url=request["homeserver"], state_store=state)
        results = []
        next_batch = None
        try:
            await client.login(password=request["password"], device_name="mautrix peer")
            machine = OlmMachine(client, PeerCryptoStore(account_id=request["user"], pickle_key="peer"), state)
            await machine.load()
            client.crypto = machine
            for step in request["steps"]:
                if step["do"] == "share_keys":
                    await machine.share_keys()
                    results.append({"device_id": client.device_id, "ed25519": machine.account.signing_key})
                elif step["do"] == "generate_recovery_key":
                    # Synapse takes a first cross-signing upload without interactive auth; one that
                    # replaces the keys (a reset) needs the password, as Element asks for it.
                    publish = machine._publish_cross_signing_keys
                    password = {"type": "m.login.password", "identifier": {"type": "m.id.user", "user": request["user"]},
                                "password": request["password"]}
                    async def publish_with_password(keys, auth=None):
                        await publish(keys, auth=password)
                    machine._publish_cross_signing_keys = publish_with_password
                    key = await machine.generate_recovery_key(passphrase=step.get("passphrase"))
                    results.append({"recovery_key": key})
                elif step["do"] == "device_trust":
                    results.append({"trust": await device_trust(machine, step["user"], step["device"])})
                elif step["do"] == "verify_with_recovery_key":
                    await machine.share_keys()
                    await machine.verify_with_recovery_key(step["key"])
                    results.append({"device_id": client.device_id})
                elif step["do"] == "strict":
                    machine.send_keys_min_trust = TrustState.CROSS_SIGNED_TOFU
                    results.append({})
                elif step["do"] == "sync":
                    data = await client.sync(full_state=True, timeout=0)
                    next_batch = data.get("next_batch")
                    await asyncio.gather(*client.handle_sync(data))
                    results.append({})
                elif step["do"] == "send_text":
                    results.append({"event_id": await client.send_text(step["room"], step["body"])})
                elif step["do"] == "serve":
                    deadline = time.monotonic() + step["seconds"]
                    while time.monotonic() < deadline and not os.path.exists(step["until"]):
                        data = await client.sync(since=next_batch, timeout=500)
                        next_batch = data.get("next_batch", next_batch)
                        await asyncio.gather(*client.handle_sync(data))
                    results.append({})
        except Exception as error:
            traceback.print_exc()
            results.append({"error": type(error).__name__ + ": " + str(error)})
        finally:
            await client.api.session.close()
            print(json.dumps(results))

    asyncio.run(main())
    """#
}
