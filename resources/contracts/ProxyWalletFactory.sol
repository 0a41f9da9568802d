// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import "./ProxyWallet.sol";

/// @title ProxyWalletFactory: one deterministic proxy wallet per owner, usable gaslessly through GSN v1.
/// @notice A 0.8 rewrite of Polymarket's ProxyWalletFactory (proxy-factories, solc 0.5 + OpenZeppelin 2.x
///         GSNRecipient) with the same ABI and address scheme: `proxy(ProxyCall[])` (0x34ee9791) deploys the
///         caller's wallet on first use (CREATE2, salt keccak256(abi.encodePacked(owner)), clone-with-constructor
///         init code) and forwards the batch. Called by the RelayHub, the caller is the trailing 20 bytes of the
///         calldata (GSN v1 `_msgSender`); called directly, it is msg.sender.
contract ProxyWalletFactory {
    address public immutable implementation;
    address private immutable relayHub;
    address public owner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(address _implementation, address _relayHub) {
        require(_implementation.code.length > 0, "implementation has no code");
        implementation = _implementation;
        relayHub = _relayHub;
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    // ---------------------------------------------------------------- wallets

    function proxy(ProxyCalls.ProxyCall[] memory calls) public payable returns (bytes[] memory returnValues) {
        address sender = _msgSender();
        address wallet = computeWalletAddress(sender);
        if (wallet.code.length == 0) {
            bytes memory initCode = _cloneInitCode();
            bytes32 salt = keccak256(abi.encodePacked(sender));
            address created;
            assembly {
                created := create2(0, add(initCode, 0x20), mload(initCode), salt)
            }
            require(created == wallet, "ProxyWalletFactory: wallet creation failed");
            ProxyWallet(payable(wallet)).initialize();
        }
        return ProxyWallet(payable(wallet)).proxy{value: msg.value}(calls);
    }

    function computeWalletAddress(address user) public view returns (address) {
        bytes32 h = keccak256(
            abi.encodePacked(bytes1(0xff), address(this), keccak256(abi.encodePacked(user)), keccak256(_cloneInitCode()))
        );
        return address(uint160(uint256(h)));
    }

    /// @notice Runs (by DELEGATECALL) inside each clone's creation code; nothing to do.
    function cloneConstructor(bytes calldata) external {}

    // EIP-1167 minimal proxy to `implementation`, behind a creation prologue that delegatecalls
    // cloneConstructor(bytes) on this factory (the proxy-factories FactoryLib layout, byte for byte).
    function _cloneInitCode() internal view returns (bytes memory) {
        return abi.encodePacked(
            hex"3d3d606380380380913d393d73",
            address(this),
            hex"5af4602a57600080fd5b602d8060366000396000f3363d3d373d3d3d363d73",
            implementation,
            hex"5af43d82803e903d91602b57fd5bf3",
            abi.encodeWithSignature("cloneConstructor(bytes)", new bytes(0))
        );
    }

    // ---------------------------------------------------------------- GSN v1 recipient

    function getHubAddr() public view returns (address) {
        return relayHub;
    }

    function relayHubVersion() public pure returns (string memory) {
        return "1.0.0";
    }

    /// @notice Accepts (0) exactly the calls to `proxy`; anything else is refused with 1, as GSNModule01.
    function acceptRelayedCall(
        address,
        address,
        bytes calldata encodedFunction,
        uint256,
        uint256,
        uint256,
        uint256,
        bytes calldata,
        uint256
    ) external view returns (uint256, bytes memory) {
        if (encodedFunction.length >= 4 && bytes4(encodedFunction[:4]) == this.proxy.selector) {
            return (0, "");
        }
        return (1, "");
    }

    function preRelayedCall(bytes calldata) external view returns (bytes32) {
        require(msg.sender == relayHub, "Function can only be called by RelayHub");
        return bytes32(0);
    }

    function postRelayedCall(bytes calldata, bool, uint256, bytes32) external view {
        require(msg.sender == relayHub, "Function can only be called by RelayHub");
    }

    function _msgSender() internal view returns (address sender) {
        if (msg.sender != relayHub || msg.data.length < 20) return msg.sender;
        // The hub appends the authenticated `from` to the calldata.
        assembly {
            sender := shr(96, calldataload(sub(calldatasize(), 20)))
        }
    }

    // ---------------------------------------------------------------- ownership

    function transferOwnership(address newOwner) external {
        require(msg.sender == owner, "Ownable: caller is not the owner");
        require(newOwner != address(0), "Ownable: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }
}
