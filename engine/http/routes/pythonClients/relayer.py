"""py-builder-relayer-client, unmodified, against an engine in the polymarket profile on a real anvil chain;
then py-clob-client-v2 trades from the Safe it deployed."""
from eth_abi import encode
from eth_utils import function_signature_to_4byte_selector
from py_builder_relayer_client.client import RelayClient
from py_builder_relayer_client.models import OperationType, SafeTransaction
from py_builder_signing_sdk.config import BuilderConfig
from py_builder_signing_sdk.sdk_types import BuilderApiKeyCreds
from py_clob_client_v2 import AssetType, BalanceAllowanceParams, ClobClient, OrderArgsV2, OrderPayload, PartialCreateOrderOptions

from flows import ENV, HOST, YES, check, flow

RELAYER, KEY = ENV["relayer"], ENV["keys"]["grace"]
state = {}


def confirmed(client, transaction_id):
    return client.poll_until_state(transaction_id, ["STATE_CONFIRMED"], "STATE_FAILED", max_polls=60, poll_frequency=1000)


@flow("builder credentials: an API key of this exchange (from the CLOB client) configures the relay client")
def _():
    creds = ClobClient(HOST, 137, key=KEY).create_or_derive_api_key()
    builder = BuilderConfig(local_builder_creds=BuilderApiKeyCreds(key=creds.api_key, secret=creds.api_secret, passphrase=creds.api_passphrase))
    state["creds"] = creds
    state["client"] = RelayClient(RELAYER, 137, KEY, builder)
    # get_transactions() is left out: this client sends it without the builder headers the public relayer requires.
    check(state["client"].builder_config.is_valid(), "builder config")


@flow("reads: get_nonce, get_deployed and get_expected_safe before deploying")
def _():
    c = state["client"]
    check(c.get_expected_safe().lower() == ENV["safes"]["grace"].lower(), c.get_expected_safe())
    check(c.get_nonce(c.signer.address(), "SAFE") == {"nonce": "0"}, c.get_nonce(c.signer.address(), "SAFE"))
    check(c.get_deployed(c.get_expected_safe()) is False, "not deployed")


@flow("deploy: the Safe the client derives is created; wait() and get_transaction see it mined")
def _():
    c = state["client"]
    res = c.deploy()
    check(res.transaction_id, "a transaction id")
    done = res.wait()
    check(done is not None and done["state"] in ("STATE_MINED", "STATE_CONFIRMED"), done)
    check(done["proxyAddress"].lower() == c.get_expected_safe().lower(), done)
    check(c.get_deployed(c.get_expected_safe()) is True, "deployed")
    check(c.get_transaction(res.transaction_id)[0]["transactionID"] == res.transaction_id, "get_transaction")


@flow("execute: a Safe transaction (collateral approve) and a MultiSend batch confirm; the nonce advances")
def _():
    c = state["client"]
    approve = lambda spender, amount: SafeTransaction(  # noqa: E731
        to=ENV["collateral"],
        operation=OperationType.Call,
        data="0x" + (function_signature_to_4byte_selector("approve(address,uint256)") + encode(["address", "uint256"], [spender, amount])).hex(),
        value="0",
    )
    one = c.execute([approve(ENV["spenders"][0], 1_000_000)], "approve")
    check(confirmed(c, one.transaction_id)["state"] == "STATE_CONFIRMED", "single confirmed")
    batch = c.execute([approve(ENV["spenders"][0], 2_000_000), approve(ENV["spenders"][1], 3_000_000)], "multisend")
    check(confirmed(c, batch.transaction_id)["state"] == "STATE_CONFIRMED", "batch confirmed")
    check(c.get_nonce(c.signer.address(), "SAFE") == {"nonce": "2"}, c.get_nonce(c.signer.address(), "SAFE"))
    check(c.get_transaction(batch.transaction_id)[0]["state"] == "STATE_CONFIRMED", "get_transaction")


@flow("Safe-funded trading: py-clob-client-v2 with signature_type 2 trades from the deployed Safe")
def _():
    safe = state["client"].get_expected_safe()
    c = ClobClient(HOST, 137, key=KEY, creds=state["creds"], signature_type=2, funder=safe)
    check(c.get_balance_allowance(BalanceAllowanceParams(asset_type=AssetType.COLLATERAL))["balance"] == "100000000", "Safe balance")
    placed = c.create_and_post_order(OrderArgsV2(token_id=YES, price=0.21, size=10, side="BUY"), PartialCreateOrderOptions(tick_size="0.01", neg_risk=False))
    check(placed["success"], placed)
    check(c.get_order(placed["orderID"])["maker_address"].lower() == safe.lower(), "maker is the Safe")
    c.cancel_order(OrderPayload(orderID=placed["orderID"]))
