"""Read-only balance of a public Ethereum or Bitcoin address."""

import json
import os
import sys
import urllib.request

ETH_RPC = os.environ.get("ETH_RPC_URL", "https://rpc.example.org")
ESPLORA = "https://blockstream.info/api"
PRICES = "https://api.coingecko.com/api/v3/simple/price?ids=ethereum,bitcoin&vs_currencies=usd"


def get(url, body=None):
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body else None,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as resp:
        return json.load(resp)


def main(address):
    prices = get(PRICES)
    if address.startswith("0x"):
        result = get(ETH_RPC, {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": [address, "latest"]})
        eth = int(result["result"], 16) / 10**18
        print(f"{eth:.6f} ETH = {eth * prices['ethereum']['usd']:.2f} USD")
    else:
        stats = get(f"{ESPLORA}/address/{address}")["chain_stats"]
        btc = (stats["funded_txo_sum"] - stats["spent_txo_sum"]) / 10**8
        print(f"{btc:.8f} BTC = {btc * prices['bitcoin']['usd']:.2f} USD")


if __name__ == "__main__":
    main(sys.argv[1])
