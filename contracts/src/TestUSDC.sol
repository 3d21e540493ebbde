// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {IERC3009} from "./IERC3009.sol";

/// @title TestUSDC: a 6-decimals stand-in for USDC on dev and test chains.
/// @notice Anyone may mint: never deploy it where the tokens must be worth anything. Like USDC it
/// implements EIP-3009 (transfer/receive with authorization, cancel) over the EIP-712 domain
/// (name = the token's name, version "2", the chain id, this contract).
contract TestUSDC is ERC20, EIP712, IERC3009 {
    /// @notice EIP-712 type hash of a TransferWithAuthorization (as USDC's).
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice EIP-712 type hash of a ReceiveWithAuthorization (as USDC's).
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice EIP-712 type hash of a CancelAuthorization (as USDC's).
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    mapping(address authorizer => mapping(bytes32 nonce => bool)) private _authorizationStates;

    /// @notice The authorization is not valid yet (block.timestamp <= validAfter).
    error AuthorizationNotYetValid();
    /// @notice The authorization has expired (block.timestamp >= validBefore).
    error AuthorizationExpired();
    /// @notice The nonce was already used or canceled.
    error AuthorizationUsedOrCanceled();
    /// @notice The signature is not the authorizer's signature of this authorization.
    error InvalidSignature();
    /// @notice receiveWithAuthorization called by someone other than the payee.
    error CallerNotPayee();

    constructor() ERC20("Test USD Coin", "USDC") EIP712("Test USD Coin", "2") {}

    /// @notice USDC has 6 decimals.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints amount base units to `to`.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice The EIP-712 domain separator the authorizations are signed under.
    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @inheritdoc IERC3009
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    /// @inheritdoc IERC3009
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
    ) external {
        _useAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, v, r, s
        );
        _transfer(from, to, value);
    }

    /// @inheritdoc IERC3009
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
    ) external {
        if (to != msg.sender) revert CallerNotPayee();
        _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, v, r, s);
        _transfer(from, to, value);
    }

    /// @inheritdoc IERC3009
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        if (_authorizationStates[authorizer][nonce]) revert AuthorizationUsedOrCanceled();
        _checkSigner(authorizer, keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)), v, r, s);
        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    /// @dev Checks the time window, the nonce and from's signature, then burns the nonce.
    function _useAuthorization(
        bytes32 typeHash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) private {
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid();
        if (block.timestamp >= validBefore) revert AuthorizationExpired();
        if (_authorizationStates[from][nonce]) revert AuthorizationUsedOrCanceled();
        _checkSigner(from, keccak256(abi.encode(typeHash, from, to, value, validAfter, validBefore, nonce)), v, r, s);
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
    }

    /// @dev Reverts unless (v, r, s) is signer's signature of the typed struct structHash.
    function _checkSigner(address signer, bytes32 structHash, uint8 v, bytes32 r, bytes32 s) private view {
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(_hashTypedDataV4(structHash), v, r, s);
        if (err != ECDSA.RecoverError.NoError || recovered != signer || signer == address(0)) {
            revert InvalidSignature();
        }
    }
}
