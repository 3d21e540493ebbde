// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IERC3009: transfers signed by the payer (EIP-3009), as USDC implements them.
/// @notice The payer signs an EIP-712 authorization off chain; anyone submits it. A nonce is
/// random (chosen by the signer) and usable once per authorizer. receiveWithAuthorization may
/// only be called by the payee, so a signature meant for a contract cannot be front-run into a
/// plain transfer.
interface IERC3009 {
    /// @notice The authorization (authorizer, nonce) was used.
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    /// @notice The authorization (authorizer, nonce) was canceled before use.
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    /// @notice True once the authorizer's nonce has been used or canceled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool);

    /// @notice Moves value from `from` to `to` with from's TransferWithAuthorization signature,
    /// valid strictly after validAfter and strictly before validBefore (unix seconds).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;

    /// @notice transferWithAuthorization for a ReceiveWithAuthorization signature; the caller
    /// must be the payee `to`.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;

    /// @notice Burns the authorizer's unused nonce with their CancelAuthorization signature.
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external;
}
